#include "service/deferred_queue.h"

#include <algorithm>
#include <optional>
#include <tuple>
#include <utility>

#include "core/admission.h"

namespace resized::service {

namespace {

// Whether the workload would be allocated no more of anything than it is:
// a request that only frees room.
bool lowersAllocation(const std::optional<store::WorkloadRecord>& record, const core::Resources& request)
{
    if (!record)
        return false;
    const core::Amounts after = core::allocationOf(record->desired.overlaidWith(request));
    return after.cpuMillis <= record->allocated.cpuMillis && after.memory <= record->allocated.memory;
}

void oldestFirst(std::vector<WaitingRequest>& waiting)
{
    std::stable_sort(waiting.begin(), waiting.end(),
                     [](const WaitingRequest& a, const WaitingRequest& b) { return a.sinceUsec < b.sinceUsec; });
}

}  // namespace

std::vector<WaitingRequest> roundRobinByPool(std::vector<WaitingRequest> waiting, const std::string& lastServed)
{
    // By pool, oldest first within each; stable, so that requests of one
    // moment keep the store's order.
    std::stable_sort(waiting.begin(), waiting.end(), [](const WaitingRequest& a, const WaitingRequest& b) {
        return std::tie(a.pool, a.sinceUsec) < std::tie(b.pool, b.sinceUsec);
    });
    std::vector<std::deque<WaitingRequest>> pools;
    for (auto& entry : waiting) {
        if (pools.empty() || pools.back().front().pool != entry.pool)
            pools.emplace_back();
        pools.back().push_back(std::move(entry));
    }
    const auto first = std::find_if(pools.begin(), pools.end(),
                                    [&](const auto& pool) { return pool.front().pool > lastServed; });
    std::rotate(pools.begin(), first, pools.end());

    std::vector<WaitingRequest> order;
    order.reserve(waiting.size());
    while (order.size() < waiting.size())
        for (auto& pool : pools)
            if (!pool.empty()) {
                order.push_back(std::move(pool.front()));
                pool.pop_front();
            }
    return order;
}

DeferredQueue::DeferredQueue(EventLoop& loop, store::StateStore& store, Offer offer)
    : loop_(loop), store_(store), offer_(std::move(offer))
{
}

void DeferredQueue::schedulePass()
{
    if (passUnderWay_) {
        passAgain_ = true;
        return;
    }
    if (!pass_)
        pass_ = loop_.after(std::chrono::microseconds(0), [this] {
            pass_ = {};
            runPass();
        });
}

void DeferredQueue::runPass()
{
    offering_ = passOrder();
    passUnderWay_ = true;
    offeredThisPass_ = false;
    offerNext();
}

std::deque<WaitingRequest> DeferredQueue::passOrder()
{
    std::vector<WaitingRequest> decreases;
    std::vector<WaitingRequest> increases;
    for (auto& update : store_.deferredUpdates()) {
        const auto record = store_.find(update.workload);
        std::string pool = update.pool.value_or(record ? record->pool() : std::string());
        const uint64_t since = update.createdAtUsec;
        (lowersAllocation(record, update.request) ? decreases : increases)
            .push_back({std::move(update), std::move(pool), since});
    }
    for (const auto& plan : plans_ ? plans_->waitingPlans() : std::vector<store::PlanRecord>{}) {
        // A plan takes its turn in the pool of its first change that grows.
        std::optional<std::string> growsIn;
        for (const auto& change : plan.changes)
            if (const auto record = store_.find(change.workload); !lowersAllocation(record, change.resources)) {
                growsIn = record ? record->pool() : std::string();
                break;
            }
        (growsIn ? increases : decreases).push_back({WaitingPlanId{plan.id}, growsIn.value_or(""), plan.runAtUsec});
    }
    oldestFirst(decreases);
    std::deque<WaitingRequest> order(std::make_move_iterator(decreases.begin()),
                                     std::make_move_iterator(decreases.end()));
    for (auto& increase : roundRobinByPool(std::move(increases), lastServedPool_))
        order.push_back(std::move(increase));
    return order;
}

bool DeferredQueue::offeringInTurn() const
{
    return !(passAgain_ && offeredThisPass_);
}

void DeferredQueue::offerNext()
{
    // A new pass begins at the pool whose turn it is.
    if (!offeringInTurn())
        offering_.clear();
    if (offering_.empty()) {
        endPass();
        return;
    }
    const WaitingRequest waiting = std::move(offering_.front());
    offering_.pop_front();
    Next next = [this, pool = waiting.pool](OfferOutcome outcome) {
        if (outcome == OfferOutcome::StopPass) {
            offering_.clear();
            endPass();
            return;
        }
        if (outcome == OfferOutcome::Started)
            lastServedPool_ = pool;
        offeredThisPass_ = true;
        offerNext();
    };
    if (const auto* update = std::get_if<store::DeferredUpdate>(&waiting.request))
        offer_(*update, std::move(next));
    else if (plans_)
        plans_->offerPlan(std::get<WaitingPlanId>(waiting.request).id, std::move(next));
    else
        next(OfferOutcome::NotStarted);
}

void DeferredQueue::endPass()
{
    passUnderWay_ = false;
    if (std::exchange(passAgain_, false))
        schedulePass();
}

}  // namespace resized::service
