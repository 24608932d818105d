#include "service/record_transitions.h"

#include "core/cpu_assignment.h"
#include "core/drift.h"

namespace resized::service::transition {
void observed(store::WorkloadRecord& record, const core::Resources& actual)
{
    record.actual = core::withExclusiveCpusHeld(actual, record.desired);
}

void bind(store::WorkloadRecord& record, const Instance& instance)
{
    record.containerId = instance.id;
    record.pod = instance.pod;
    record.runState = instance.state;
    record.cgroupPath = instance.cgroupPath;
    record.poolLabel = instance.poolLabel;
    record.removedAtUsec = 0;
}

store::WorkloadRecord withMembership(store::WorkloadRecord record, const std::optional<Instance>& instance,
                                     const std::optional<std::string>& poolOption)
{
    if (instance)
        record.poolLabel = instance->poolLabel;
    if (poolOption)
        record.poolOption = *poolOption;
    return record;
}

bool cameBackElsewhere(const store::WorkloadRecord& record, const Instance& instance)
{
    return record.holdsAllocation &&
           (instance.pod != record.pod || record.poolOption.value_or(instance.poolLabel) != record.pool());
}

void gone(store::WorkloadRecord& record)
{
    record.runState = core::RunState::Removed;
    record.cgroupPath.clear();
}

void applying(store::WorkloadRecord& record, uint64_t nowUsec)
{
    record.generation++;
    record.syncState = core::SyncState::Applying;
    record.updateState = core::UpdateState::Running;
    record.message.clear();
    record.updatedAtUsec = nowUsec;
}

void waitingForCgroup(store::WorkloadRecord& record, uint64_t nowUsec)
{
    record.generation++;
    record.syncState = core::SyncState::Pending;
    record.updateState = core::UpdateState::Pending;
    record.message = "the workload is not running; the limits are applied when it starts";
    record.updatedAtUsec = nowUsec;
}

void applied(store::WorkloadRecord& record, const core::Resources& written, const core::Resources& actual,
             uint64_t nowUsec)
{
    record.actuated = record.actuated.overlaidWith(written);
    observed(record, actual);
    record.syncState = core::SyncState::Synchronized;
    record.updateState = core::UpdateState::Success;
    record.message.clear();
    record.observedGeneration = record.generation;
    record.updatedAtUsec = nowUsec;
}

void applyFailed(store::WorkloadRecord& record, const core::Resources& previousDesired,
                 const core::Resources& actual, const std::string& message, uint64_t nowUsec)
{
    record.desired = previousDesired;
    observed(record, actual);
    record.syncState = core::matches(record.actuated, actual) ? core::SyncState::Synchronized
                                                              : core::SyncState::Failed;
    record.updateState = core::UpdateState::Failed;
    record.message = message;
    record.observedGeneration = record.generation;
    record.updatedAtUsec = nowUsec;
}

void deferred(store::WorkloadRecord& record, const std::string& reason, uint64_t nowUsec)
{
    record.updateState = core::UpdateState::Deferred;
    record.message = "waiting for capacity: " + reason;
    record.updatedAtUsec = nowUsec;
}

void withdrawn(store::WorkloadRecord& record, const std::string& actor, uint64_t nowUsec)
{
    record.updateState = core::UpdateState::Failed;
    record.message = "the change " + actor + " deferred was withdrawn before it fitted";
    record.updatedAtUsec = nowUsec;
}

void infeasible(store::WorkloadRecord& record, const std::string& reason, uint64_t nowUsec)
{
    record.updateState = core::UpdateState::Infeasible;
    record.message = reason;
    record.updatedAtUsec = nowUsec;
}

void synchronized(store::WorkloadRecord& record, const core::Resources& actual)
{
    observed(record, actual);
    record.syncState = core::SyncState::Synchronized;
}

void driftDetected(store::WorkloadRecord& record, const core::Resources& actual)
{
    observed(record, actual);
    record.syncState = core::SyncState::DriftDetected;
}

namespace {

void release(store::WorkloadRecord& record, std::string why, uint64_t nowUsec)
{
    record.holdsAllocation = false;
    record.allocated = {};
    record.syncState = core::SyncState::Pending;
    record.updateState = core::UpdateState::Pending;
    record.message = std::move(why);
    record.updatedAtUsec = nowUsec;
}

}  // namespace

void allocationReleased(store::WorkloadRecord& record, uint64_t nowUsec)
{
    release(record,
            "the container was removed and its allocation released; a container of this "
            "name is admitted again when it appears",
            nowUsec);
}

namespace {

std::string placeOf(const std::string& pod, const std::string& pool)
{
    return (pod.empty() ? "no pod" : "pod " + pod) + " and " + (pool.empty() ? "no pool" : "pool " + pool);
}

}  // namespace

void movedOut(store::WorkloadRecord& record, const store::WorkloadRecord& before, uint64_t nowUsec)
{
    release(record,
            "its container came back in " + placeOf(record.pod, record.pool()) + ", not in " +
                placeOf(before.pod, before.pool()) + "; it is admitted there again",
            nowUsec);
}

}  // namespace resized::service::transition
