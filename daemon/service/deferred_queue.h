#pragma once

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
    // Tries one waiting request; false stops the pass (the runtime is away,
    // nothing else will fit either).
    using Offer = std::function<bool(const store::DeferredUpdate&)>;

    DeferredQueue(EventLoop& loop, store::StateStore& store, Offer offer);

    // Capacity may have freed: one pass soon, however often this is called
    // before it runs.
    void schedulePass();

private:
    void runPass();

    EventLoop& loop_;
    store::StateStore& store_;
    Offer offer_;
    EventSource pass_;
};

}  // namespace resized::service
