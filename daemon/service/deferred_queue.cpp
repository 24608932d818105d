#include "service/deferred_queue.h"

#include <algorithm>
#include <utility>

#include "core/admission.h"

namespace resized::service {

std::vector<WaitingUpdate> roundRobinByPool(std::vector<WaitingUpdate> waiting, const std::string& lastServed)
{
    // Oldest first within a pool: the store's order, kept by a stable sort.
    std::stable_sort(waiting.begin(), waiting.end(),
                     [](const WaitingUpdate& a, const WaitingUpdate& b) { return a.pool < b.pool; });
    std::vector<std::deque<WaitingUpdate>> pools;
    for (auto& entry : waiting) {
        if (pools.empty() || pools.back().front().pool != entry.pool)
            pools.emplace_back();
        pools.back().push_back(std::move(entry));
    }
    const auto first = std::find_if(pools.begin(), pools.end(),
                                    [&](const auto& pool) { return pool.front().pool > lastServed; });
    std::rotate(pools.begin(), first, pools.end());

    std::vector<WaitingUpdate> order;
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
    std::vector<WaitingUpdate> decreases;
    std::vector<WaitingUpdate> increases;
    for (auto& update : store_.deferredUpdates()) {
        const auto record = store_.find(update.workload);
        std::string pool = update.pool.value_or(record ? record->pool() : std::string());
        const bool decrease = record && [&] {
            const core::Amounts after = core::allocationOf(record->desired.overlaidWith(update.request));
            return after.cpuMillis <= record->allocated.cpuMillis && after.memory <= record->allocated.memory;
        }();
        (decrease ? decreases : increases).push_back({std::move(update), std::move(pool)});
    }
    offering_.assign(std::make_move_iterator(decreases.begin()), std::make_move_iterator(decreases.end()));
    for (auto& increase : roundRobinByPool(std::move(increases), lastServedPool_))
        offering_.push_back(std::move(increase));
    passUnderWay_ = true;
    offeredThisPass_ = false;
    offerNext();
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
    const WaitingUpdate waiting = std::move(offering_.front());
    offering_.pop_front();
    offer_(waiting.update, [this, pool = waiting.pool](OfferOutcome outcome) {
        if (outcome == OfferOutcome::StopPass) {
            offering_.clear();
            endPass();
            return;
        }
        if (outcome == OfferOutcome::Started)
            lastServedPool_ = pool;
        offeredThisPass_ = true;
        offerNext();
    });
}

void DeferredQueue::endPass()
{
    passUnderWay_ = false;
    if (std::exchange(passAgain_, false))
        schedulePass();
}

}  // namespace resized::service
