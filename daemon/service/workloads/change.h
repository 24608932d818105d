#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "core/backoff.h"
#include "core/states.h"
#include "core/resources.h"
#include "service/actor.h"
#include "service/errors.h"
#include "service/event_loop.h"
#include "service/executor.h"
#include "store/plan_store.h"
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

// One workload's part of a change set: the record as it is to be, what is
// written, and what to put back when the change fails or is undone.
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
    // What admission reserved for it; none for a repair, which holds what
    // it held.
    std::optional<int64_t> reservationId;
    // The disruption of its pool it counts in the budgets, if it lowers a
    // member: counted in the metrics once the change is applied.
    std::optional<store::Disruption> disruption;
};

// Another container's cpuset moved as the slices change, onto the shared
// pool or back to what it had (CpuManager::placementOf). It holds what it
// held: nothing admits or reserves it, and only the cpuset it had before
// its first narrowing is remembered (CpuManager::placing).
struct Placement {
    std::string workload;  // canonical
    CgroupChange write;
    // What to remember before the write: the cpuset it had before the first
    // narrowing; or that it gets that cpuset back, and nothing is left to
    // remember.
    std::optional<core::CpuSet> narrowedFrom;
    bool givenBack = false;
    // It loses CPUs: written before the changes of its set, so that a slice
    // is free of the others when its holder gets it; a placement that only
    // gains CPUs is written after them, once a slice has left them.
    bool narrows = false;
};

// How a plan's run ended. Pending: it did not run and is to be offered
// again (one of its workloads was busy, or it waits with Defer).
struct PlanOutcome {
    core::PlanState state = core::PlanState::Pending;
    core::PlanReason reason = core::PlanReason::None;
    std::string message{};
};
using PlanCallback = std::function<void(PlanOutcome)>;

// Every change to a workload's cgroups, whoever asked for it (design.md
// §1c): the changes of one or more workloads, admitted and reserved as one,
// written by one Execution in the order of `items` (decreases first),
// between the placements that narrow and those that widen,
// committed in one transaction and undone as one. An update and a repair
// are sets of one; a plan's set carries the plan, whose row is committed
// with the outcome.
struct ChangeSet {
    uint64_t id = 0;  // given by Workloads::begin()
    std::vector<WorkloadChange> items;
    // The other containers moved with the slices the items change; a set of
    // placements alone moves containers around slices changed before.
    std::vector<Placement> placements;
    // Told when a set of placements alone has ended, however it ended (the
    // OCI hook waits for it).
    std::vector<std::function<void()>> placed;
    std::unique_ptr<Execution> execution;
    Actor actor;
    uint64_t startedAtUsec = 0;
    std::optional<store::PlanRecord> plan;
    // Told of the end: an update's caller, or a plan's.
    UpdateCallback answer;
    PlanCallback planDone;
    // The outcome could not be committed: its workloads wait until the
    // store takes the resolution of its reservations.
    EventSource storeRetry;
    std::optional<core::Backoff> storeBackoff;

    // A drift repair: it holds what it held, and nobody waits for it.
    bool repair() const { return !plan && items.size() == 1 && !items.front().reservationId; }
    // Only other containers moved around the slices: nothing to commit.
    bool placementsOnly() const { return items.empty(); }
};

}  // namespace resized::service
