#pragma once

#include <deque>
#include <functional>
#include <vector>

#include "service/event_loop.h"
#include "store/state_store.h"

namespace resized::service {

// Requests asked with Defer=true that did not fit, waiting in the store for
// capacity. A pass offers them again whenever capacity may have freed:
// decreases first (they always fit, and free capacity for the others), then
// oldest first.
class DeferredQueue {
public:
    // Called once an offer is done: false stops the pass (the runtime is
    // away, nothing else will fit either).
    using Next = std::function<void(bool goOn)>;
    // Tries one waiting request, and calls `next`, maybe later: the next
    // offer is measured against what this one took.
    using Offer = std::function<void(const store::DeferredUpdate&, Next next)>;

    DeferredQueue(EventLoop& loop, store::StateStore& store, Offer offer);

    // Capacity may have freed: one pass soon, however often this is called
    // before it runs; one more after the pass under way.
    void schedulePass();

private:
    void runPass();
    void offerNext();
    void endPass();

    EventLoop& loop_;
    store::StateStore& store_;
    Offer offer_;
    EventSource pass_;
    // The requests the pass under way is still to offer.
    std::deque<store::DeferredUpdate> offering_;
    bool passUnderWay_ = false;
    bool passAgain_ = false;
};

}  // namespace resized::service
