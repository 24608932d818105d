#pragma once

#include <deque>
#include <functional>
#include <string>
#include <vector>

#include "service/event_loop.h"
#include "store/state_store.h"

namespace resized::service {

// A waiting request with the pool it would land in ("" for none).
struct WaitingUpdate {
    store::DeferredUpdate update;
    std::string pool;
};

// design.md §1b: freed capacity is offered pool by pool, round-robin in the
// pools' name order (no pool first), oldest first within each pool, and
// beginning with the pool after `lastServed` — so that a pool with many
// requests cannot take every chance from one with few, as a single global
// order would let it.
std::vector<WaitingUpdate> roundRobinByPool(std::vector<WaitingUpdate> waiting, const std::string& lastServed);

// Requests asked with Defer=true that did not fit, waiting in the store for
// capacity. A pass offers them again whenever capacity may have freed:
// decreases first (they always fit, and free capacity for the others), then
// the increases round-robin by pool (roundRobinByPool), beginning after the
// pool whose request was started last.
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
    // Tries one waiting request, and calls `next`, maybe later: the next
    // offer is measured against what this one took.
    using Offer = std::function<void(const store::DeferredUpdate&, Next next)>;

    DeferredQueue(EventLoop& loop, store::StateStore& store, Offer offer);

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
    void offerNext();
    void endPass();

    EventLoop& loop_;
    store::StateStore& store_;
    Offer offer_;
    EventSource pass_;
    // The requests the pass under way is still to offer.
    std::deque<WaitingUpdate> offering_;
    // The pool of the request started last, where the next round begins.
    std::string lastServedPool_;
    bool passUnderWay_ = false;
    bool passAgain_ = false;
    // Whether the pass under way has finished offering a request.
    bool offeredThisPass_ = false;
};

}  // namespace resized::service
