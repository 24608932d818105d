#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "core/resources.h"
#include "service/workload_source.h"
#include "store/state_store.h"

// The named steps of a workload record's life. SyncState, UpdateState,
// Message and the generations change here and nowhere else, so that what
// a state means is written down once.
namespace resized::service::transition {

// The record follows its workload's current instance: container, pod, run
// state and cgroup (the driver is the caller's to pick).
void bind(store::WorkloadRecord& record, const Instance& instance);
// The record as it would be after a change with this `Pool` option, in the
// pool its instance's label names unless an option chose one.
store::WorkloadRecord withMembership(store::WorkloadRecord record, const std::optional<Instance>& instance,
                                     const std::optional<std::string>& poolOption);
// Its source knows no such workload now (for a status: not saved).
void gone(store::WorkloadRecord& record);
// A change was admitted and its writes begin.
void applying(store::WorkloadRecord& record, uint64_t nowUsec);
// A change was admitted while the workload has no cgroup: its allocation
// is held, its limits are written when it runs.
void waitingForCgroup(store::WorkloadRecord& record, uint64_t nowUsec);
// `actual` was read from the record's cgroup. Actual carries ExclusiveCpus
// too (design.md §1b), which no cgroup file holds: the slice is held while
// the cgroup runs on exactly it.
void observed(store::WorkloadRecord& record, const core::Resources& actual);

// Every key of `written` is in place; `actual` was read back.
void applied(store::WorkloadRecord& record, const core::Resources& written, const core::Resources& actual,
             uint64_t nowUsec);
// Nothing of the change is left; the desired state is what it was before.
void applyFailed(store::WorkloadRecord& record, const core::Resources& previousDesired,
                 const core::Resources& actual, const std::string& message, uint64_t nowUsec);
// Did not fit now; waits for capacity.
void deferred(store::WorkloadRecord& record, const std::string& reason, uint64_t nowUsec);
// A deferred change withdrawn by who asked for it (the autoscaler, its
// policy removed): it will not be applied.
void withdrawn(store::WorkloadRecord& record, const std::string& actor, uint64_t nowUsec);
// Larger than the node (or its cgroup) could ever hold; never retried.
void infeasible(store::WorkloadRecord& record, const std::string& reason, uint64_t nowUsec);
// The cgroup holds what resized last wrote.
void synchronized(store::WorkloadRecord& record, const core::Resources& actual);
// The cgroup holds something else; a repair follows.
void driftDetected(store::WorkloadRecord& record, const core::Resources& actual);
// The removal grace passed: the allocation goes back to the node and the
// desired state waits for a container of that name to be admitted again.
void allocationReleased(store::WorkloadRecord& record, uint64_t nowUsec);
// Whether `record` holds an allocation admitted in another pod or pool
// than the one `instance`, its container created again, is in: that pod's
// limit and that pool's cap never counted it.
bool cameBackElsewhere(const store::WorkloadRecord& record, const Instance& instance);
// Its container was created again in another pod or with another pool's
// label, which it is bound to (`before`: the record as it was): its
// allocation goes back to the node rather than into that pod or pool
// unchecked, and the desired state waits to be admitted there.
void movedOut(store::WorkloadRecord& record, const store::WorkloadRecord& before, uint64_t nowUsec);

}  // namespace resized::service::transition
