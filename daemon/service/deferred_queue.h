#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <variant>
#include <vector>

#include "service/event_loop.h"
#include "store/plan_store.h"
#include "store/state_store.h"

namespace resized::service {

// A plan that waits with Defer for room, by its id.
struct WaitingPlanId {
    int64_t id = 0;
    bool operator==(const WaitingPlanId&) const = default;
};

// A request that waits for room, with the pool it would grow in ("" for
// none) and since when it waits.
struct WaitingRequest {
    std::variant<store::DeferredUpdate, WaitingPlanId> request;
    std::string pool;
    uint64_t sinceUsec = 0;
};

// design.md §1b: freed capacity is offered pool by pool, round-robin in the
// pools' name order (no pool first), oldest first within each pool, and
// beginning with the pool after `lastServed` — so that a pool with many
// requests cannot take every chance from one with few, as a single global
// order would let it.
std::vector<WaitingRequest> roundRobinByPool(std::vector<WaitingRequest> waiting, const std::string& lastServed);

class WaitingPlans;

// Requests asked with Defer=true that did not fit: updates waiting in the
// store, and plans (WaitingPlans). A pass offers them again whenever
// capacity may have freed: decreases first (they always fit, and free
// capacity for the others), then the increases round-robin by pool
// (roundRobinByPool), beginning after the pool whose request was started
// last.
class DeferredQueue {
public:
    enum class OfferOutcome {
        Started,
        NotStarted,
        // The runtime is away: nothing else will fit either; the pass stops.
        StopPass,
    };
    // Called once an offer is done.
    using Next = std::function<void(OfferOutcome)>;
    // Tries one waiting update, and calls `next`, maybe later: the next
    // offer is measured against what this one took.
    using Offer = std::function<void(const store::DeferredUpdate&, Next next)>;

    DeferredQueue(EventLoop& loop, store::StateStore& store, Offer offer);

    // Where the waiting plans are; none until this is called.
    void setWaitingPlans(WaitingPlans* plans) { plans_ = plans; }

    // Capacity may have freed: one pass soon, however often this is called
    // before it runs; one more after the pass under way.
    void schedulePass();

    // Whether the pass under way still offers in turn: not once capacity
    // freed after it offered a request, as the rest of its order would give
    // the new room to whoever comes next in it rather than to the pool whose
    // turn it is. An offer still looking up its workload then must not take
    // the room; the next pass offers it again.
    bool offeringInTurn() const;

private:
    void runPass();
    // What the pass offers: decreases, then the increases round-robin.
    std::deque<WaitingRequest> passOrder();
    void offerNext();
    void endPass();

    EventLoop& loop_;
    store::StateStore& store_;
    Offer offer_;
    WaitingPlans* plans_ = nullptr;
    EventSource pass_;
    // The requests the pass under way is still to offer.
    std::deque<WaitingRequest> offering_;
    // The pool of the request started last, where the next round begins.
    std::string lastServedPool_;
    bool passUnderWay_ = false;
    bool passAgain_ = false;
    // Whether the pass under way has finished offering a request.
    bool offeredThisPass_ = false;
};

// The plans that wait with Defer for capacity or a disruption budget
// (Plans): offered by the deferred queue in their pools' turns, as updates
// are, not on a timer of their own that would let them overtake.
class WaitingPlans {
public:
    virtual ~WaitingPlans() = default;
    virtual std::vector<store::PlanRecord> waitingPlans() = 0;
    // Runs the plan if it is still waiting, and calls `next` once it
    // started or did not.
    virtual void offerPlan(int64_t id, DeferredQueue::Next next) = 0;
};

}  // namespace resized::service
