#pragma once

#include <cstdint>
#include <functional>
#include <optional>

#include "core/states.h"
#include "service/event_loop.h"
#include "store/state_store.h"

namespace resized::service {

// The first moment after `nowUsec` at which what the pools' disruption
// budgets allow may change with time alone: a disruption leaving the period
// of a budget, or a budget's window opening or closing. No event of a
// workload announces those moments. nullopt when no budget depends on time.
std::optional<uint64_t> nextBudgetChangeUsec(store::StateStore& store, uint64_t nowUsec);
// The same for one pool's budgets.
std::optional<uint64_t> nextBudgetChangeUsec(store::StateStore& store, const store::PoolRecord& pool,
                                             uint64_t nowUsec);

// The first moment after `nowUsec` at which the pool's budgets allow
// `disruptions` more for `reason` with time alone, as far as time alone
// frees them: nullopt when only a change in flight ending can (a budget
// with no period) or no such moment is found among the next day's.
std::optional<uint64_t> disruptionsAllowedAtUsec(store::StateStore& store, const store::PoolRecord& pool,
                                                 core::DisruptionReason reason, size_t disruptions,
                                                 uint64_t nowUsec);

// Calls `changed` at each such moment, so that AllowedDisruptions is
// announced and what waits for a budget is offered again when it frees, not
// at the next poll.
class BudgetClock {
public:
    BudgetClock(EventLoop& loop, store::StateStore& store, std::function<void()> changed);

    // The pools, their budgets or their disruptions changed, and with them
    // maybe the next such moment.
    void rearm();

private:
    EventLoop& loop_;
    store::StateStore& store_;
    std::function<void()> changed_;
    EventSource timer_;
};

}  // namespace resized::service
