#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <variant>

#include "core/backoff.h"
#include "core/resources.h"
#include "service/actor.h"
#include "service/errors.h"
#include "service/event_loop.h"
#include "service/executor.h"
#include "store/state_store.h"

namespace resized::service {

struct UpdateOptions {
    bool dryRun = false;
    bool force = false;
    bool defer = false;
    std::optional<std::chrono::microseconds> reclaimTimeout;
    // The pool the workload joins ("": none), durable, winning over its
    // io.resized1.pool label; unset keeps the membership it has.
    std::optional<std::string> pool;
};

// What a call ends with: its value, or the error of the D-Bus contract.
template <typename Value>
using Outcome = std::variant<Value, ResizeError>;
template <typename Value>
using Answer = std::function<void(Outcome<Value>)>;

using UpdateResult = Outcome<store::WorkloadRecord>;
using UpdateCallback = Answer<store::WorkloadRecord>;
// (allowed, reason)
using Verdict = std::pair<bool, std::string>;

// An update asked of a workload, waiting for its turn or about to start.
struct QueuedUpdate {
    core::Resources request;
    UpdateOptions options;
    Actor actor;
    UpdateCallback done;
};

// A Forget asked while the workload was being changed: it runs when the
// change has ended, as an update would (design.md §1c).
struct QueuedForget {
    uint32_t callerUid = 0;
    uint64_t startedAtUsec = 0;
    Answer<std::monostate> done;
};

using QueuedRequest = std::variant<QueuedUpdate, QueuedForget>;

// One workload's part of a change, an update's or a plan's: the record as
// it is to be, what is written, and what to put back when the change
// fails or is undone.
struct WorkloadChange {
    store::WorkloadRecord record;
    core::Resources request;
    core::Resources previousDesired;
    // The membership the record had before the change: a change that fails
    // changes no pool membership.
    std::optional<std::string> previousPoolOption;
    std::string previousPoolLabel;
    // What the workload holds once the change is applied.
    core::Amounts targetAllocation;
    // What the keys the change touches held before it.
    core::Resources previousActual;
};

// One change of a workload's own being applied: an update (with a
// reservation and maybe a caller) or a repair.
struct ChangeInFlight {
    WorkloadChange change;
    std::optional<int64_t> reservationId;
    std::unique_ptr<Execution> execution;
    UpdateCallback done;
    Actor actor;
    uint64_t startedAtUsec = 0;
    // The outcome could not be committed: the workload waits until the
    // store takes its reservation's resolution.
    EventSource storeRetry;
    std::optional<core::Backoff> storeBackoff;
};

}  // namespace resized::service
