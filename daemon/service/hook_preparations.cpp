#include "service/hook_preparations.h"

#include <spdlog/spdlog.h>

#include <iterator>
#include <utility>

#include "cgroup/process_cgroup.h"
#include "runtime/names.h"
#include "service/known_container.h"

namespace resized::service {

HookPreparations::HookPreparations(store::StateStore& store, Reconciler& reconciler, EventSequence& events,
                                   std::function<bool(const std::string&)> busy, PlaceUnmanaged placeUnmanaged)
    : store_(store),
      reconciler_(reconciler),
      events_(events),
      busy_(std::move(busy)),
      placeUnmanaged_(std::move(placeUnmanaged))
{
}

std::string HookPreparations::cgroupOfContainer(const std::string& id, pid_t pid)
{
    std::string cgroupPath;
    try {
        cgroupPath = cgroup::cgroupOfProcess(pid);
    } catch (const cgroup::CgroupError& error) {
        throw ResizeError(ErrorCode::InvalidArgument, error.what());
    }
    // The limits go into the container's own cgroup and nowhere else.
    if (cgroupPath.find(id) == std::string::npos)
        throw ResizeError(ErrorCode::InvalidArgument, "process " + std::to_string(pid) +
                                                          " is not in the cgroup of container " + id + " but in " +
                                                          cgroupPath);
    return cgroupPath;
}

void HookPreparations::prepare(const std::string& id, const std::string& name, pid_t pid, PrepareCallback done)
{
    if (!runtime::isFullId(id))
        throw ResizeError(ErrorCode::InvalidArgument,
                          "\"" + id + "\" is not a full container ID (64 lowercase hexadecimal digits)");
    if (!name.empty() && !runtime::couldNameContainerOrPod(name))
        throw ResizeError(ErrorCode::InvalidArgument, "\"" + name + "\" is not a container name");
    if (pid <= 0)
        throw ResizeError(ErrorCode::InvalidArgument, "the process ID must be positive");

    // A restarted container keeps its ID; one created again under a known
    // name (`podman run --replace`, Quadlet) has a new one.
    auto record = store_.findByContainerId(id);
    if (!record && !name.empty())
        record = store_.find(name);
    if (!record) {
        placeUnmanaged(id, name, pid, std::move(done));
        return;
    }
    std::string cgroupPath = cgroupOfContainer(id, pid);

    events_.note(record->name);
    hooked_[record->name] = {id, nowUsec()};
    prepareCreation(record->name, Creation{id, std::move(cgroupPath), std::move(done)});
}

// Nothing of it is resized's but, under the CPU manager's static policy, its
// cpuset; a process that is not in the container's cgroup leaves it alone,
// as a container resized does not manage is no reason to fail its start.
void HookPreparations::placeUnmanaged(const std::string& id, const std::string& name, pid_t pid,
                                      PrepareCallback done)
{
    if (!placeUnmanaged_) {
        done(std::string());
        return;
    }
    std::string cgroupPath;
    try {
        cgroupPath = cgroupOfContainer(id, pid);
    } catch (const ResizeError& error) {
        spdlog::debug("container {}: not placed: {}", id, error.what());
        done(std::string());
        return;
    }
    const Instance creating{.name = {core::WorkloadKind::Container, name.empty() ? id : name},
                            .id = id,
                            .pod = {},
                            .state = core::RunState::Running,
                            .cgroupPath = std::move(cgroupPath),
                            .createLimits = {},
                            .poolLabel = {}};
    placeUnmanaged_(creating, [done = std::move(done)] { done(std::string()); });
}

// A change still in flight for the workload (a repair of the container's
// previous run, typically, found by its restart event) would race the
// hook's write and could even restore the old limits over it: the hook
// waits for it to end, within its own time limit.
void HookPreparations::prepareCreation(const std::string& workload, Creation creation)
{
    if (busy_(workload)) {
        spdlog::debug("{}: container {} is being created; waiting for the change in flight", workload, creation.id);
        waitingForChange_[workload].push_back(std::move(creation));
        return;
    }
    // A workload that holds no allocation would need admitting, which asks
    // Podman: its start event sees to it.
    const auto record = store_.find(workload);
    if (!record || record->kind != core::WorkloadKind::Container || !record->holdsAllocation ||
        record->desired.empty()) {
        creation.done(std::string());
        return;
    }
    const Instance creating = knownContainer(*record, creation.id, core::RunState::Running, creation.cgroupPath);
    spdlog::debug("{}: container {} is being created; writing its limits before it runs", workload, creation.id);
    reconciler_.reconcileOne(workload, &creating, Lookup::AskSource, Actor::hook());
    if (busy_(workload)) {
        waitingForRepair_[workload].push_back(std::move(creation.done));
        return;
    }
    const auto reconciled = store_.find(workload);
    creation.done(reconciled && reconciled->syncState == core::SyncState::Synchronized ? workload : std::string());
}

// Only the newest creation of a container matters: an older one's process
// has gone, and its hook has given up.
void HookPreparations::workloadIdle(const std::string& workload)
{
    auto waiting = waitingForChange_.extract(workload);
    if (waiting.empty())
        return;
    auto& creations = waiting.mapped();
    for (auto stale = creations.begin(); stale != std::prev(creations.end()); ++stale)
        stale->done(std::string());
    prepareCreation(workload, std::move(creations.back()));
}

void HookPreparations::changeEnded(const std::string& workload, bool applied, const std::string& message)
{
    auto waiting = waitingForRepair_.extract(workload);
    if (waiting.empty())
        return;
    for (const auto& done : waiting.mapped()) {
        if (applied)
            done(workload);
        else
            done(ResizeError(ErrorCode::ApplyFailed, message));
    }
}

bool HookPreparations::stopOfEarlierRun(const std::string& workload, const std::string& id, uint64_t atUsec) const
{
    const auto hooked = hooked_.find(workload);
    return hooked != hooked_.end() && hooked->second.id == id && atUsec < hooked->second.atUsec;
}

}  // namespace resized::service
