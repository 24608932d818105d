#include "service/container_lifecycle.h"

#include <spdlog/spdlog.h>

#include "service/known_container.h"

namespace resized::service {

ContainerLifecycle::ContainerLifecycle(store::StateStore& store, Reconciler& reconciler, HookPreparations& hooks,
                                       EventSequence& events, ContainerLifecycleHost& host)
    : store_(store), reconciler_(reconciler), hooks_(hooks), events_(events), host_(host)
{
}

// The workload of container `name`, as a lifecycle event of the container
// `id` finds it: nullopt when it is not resized's or when its record is
// bound to another container already (the OCI hook or the create event of a
// newer one came first).
std::optional<store::WorkloadRecord> ContainerLifecycle::recordForEvent(const std::string& id,
                                                                        const std::string& name)
{
    auto record = store_.find(name);
    if (!record || record->kind != core::WorkloadKind::Container)
        return std::nullopt;
    if (!record->containerId.empty() && record->containerId != id && record->runState != core::RunState::Removed)
        return std::nullopt;
    return record;
}

// Taken from the event alone (see container_events.h): no cgroup until the
// start event.
void ContainerLifecycle::bindWithoutCgroup(const store::WorkloadRecord& record, const std::string& id)
{
    const Instance stopped = knownContainer(record, id, core::RunState::Stopped);
    reconciler_.reconcileOne(record.name, &stopped);
}

void ContainerLifecycle::containerCreated(const std::string& id, const std::string& name)
{
    events_.note(name);
    const auto record = store_.find(name);
    // Bound already when the OCI hook came first.
    if (!record || record->kind != core::WorkloadKind::Container || record->containerId == id)
        return;
    bindWithoutCgroup(*record, id);
}

// Podman's events name containers only: a pod's cgroup comes back with its
// infra container, so every pod workload is looked at when any container
// starts. Pods are few.
void ContainerLifecycle::reconcilePods()
{
    for (const auto& record : store_.workloads())
        if (record.kind == core::WorkloadKind::Pod)
            reconciler_.reconcileOne(record.name);
}

void ContainerLifecycle::containerStarted(const std::string& id, const std::string& name)
{
    events_.note(name);
    reconcilePods();
    const auto record = store_.find(name);
    if (!record) {
        countIfUnmanaged(name);
        return;
    }
    // The OCI hook of this start bound it (the died event before it unbinds
    // the cgroup): Podman, which may hold the container locked for a next
    // restart already, need not be asked.
    if (const auto bound = boundContainer(*record); bound && bound->id == id) {
        reconciler_.reconcileOne(name, &*bound);
        return;
    }
    reconciler_.reconcileOne(name);
}

void ContainerLifecycle::countIfUnmanaged(const std::string& name)
{
    host_.lookUpName({core::WorkloadKind::Container, name}, [this, name, askedAt = events_.last()](Found found) {
        // A later event of the container has seen to it already, or an
        // update has made it resized's meanwhile: it holds its allocation.
        if (events_.hadEventAfter(name, askedAt) || store_.find(name))
            return;
        if (const auto* instance = std::get_if<std::optional<Instance>>(&found)) {
            if (*instance && (*instance)->hasCgroup())
                host_.countUnheld(**instance);
            return;
        }
        const auto* unavailable = std::get_if<SourceUnavailable>(&found);
        spdlog::warn("{}: started, but cannot be inspected: {}", name,
                     unavailable ? unavailable->what() : std::get<AmbiguousName>(found).what());
    });
}

void ContainerLifecycle::containerPaused(const std::string&, const std::string& name)
{
    events_.note(name);
    // A frozen container keeps its cgroup, its memory and so its allocation.
    if (store_.find(name))
        reconciler_.reconcileOne(name);
}

void ContainerLifecycle::containerUnpaused(const std::string& id, const std::string& name)
{
    containerStarted(id, name);
}

void ContainerLifecycle::containerGone(const std::string& name)
{
    reconcilePods();
    host_.unheldGone(name);
}

void ContainerLifecycle::containerStopped(const std::string& id, const std::string& name, uint64_t atUsec)
{
    events_.note(name);
    containerGone(name);
    const auto record = recordForEvent(id, name);
    if (!record)
        return;
    // Unbinding the run the hook bound would leave its start event to ask
    // Podman, which holds the container locked for a next restart already.
    if (hooks_.stopOfEarlierRun(name, id, atUsec)) {
        spdlog::debug("{}: the stop of a run before the one created since", name);
        return;
    }
    hooks_.runEnded(name);
    bindWithoutCgroup(*record, id);
}

void ContainerLifecycle::containerRemoved(const std::string& id, const std::string& name)
{
    events_.note(name);
    containerGone(name);
    hooks_.runEnded(name);
    static const Instance absent{};
    if (recordForEvent(id, name))
        reconciler_.reconcileOne(name, &absent);
}

void ContainerLifecycle::containerRenamed(const std::string&, const std::string&)
{
    // The old name may be a known workload that lost its container, the new
    // one a known workload that gained one: both are found by a full pass.
    host_.resynchronise();
}

}  // namespace resized::service
