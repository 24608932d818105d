#include "service/cpu_manager.h"

#include <spdlog/spdlog.h>

#include <set>

#include "cgroup/limits_backend.h"
#include "core/drift.h"

namespace resized::service {

CpuManager::CpuManager(EventLoop& loop, store::StateStore& store, const core::CpuTopology& topology,
                       core::CpuManagerSettings settings, cgroup::DriverSelector& drivers, WorkerThread& peerCalls)
    : loop_(loop),
      store_(store),
      topology_(topology),
      settings_(std::move(settings)),
      drivers_(drivers),
      peerCalls_(peerCalls)
{
}

CpuManager::~CpuManager() = default;

core::CpuAssignment CpuManager::assignment() const
{
    return core::CpuAssignment(topology_, settings_, store_.heldSlices());
}

CpuPools CpuManager::pools() const
{
    // Nothing is exclusive without the static policy, whatever slices an
    // earlier run under it left in the store.
    if (settings_.policy != core::CpuManagerPolicy::Static)
        return {.policy = "none", .shared = topology_.cpus(), .reserved = {}, .exclusive = {}};
    const auto now = assignment();
    return {.policy = std::string(core::toString(settings_.policy)),
            .shared = now.shared(),
            .reserved = settings_.reserved,
            .exclusive = now.exclusive()};
}

core::SliceRequest CpuManager::expand(const std::string& workload, core::WorkloadKind kind,
                                      const core::Resources& request, const core::Resources& desired,
                                      const core::CpuSet& alsoTaken) const
{
    if (kind != core::WorkloadKind::Container && request.exclusiveCpus.value_or(0) > 0)
        return {{}, {}, std::string("CPU manager: exclusive CPUs are given to containers only") +
                            (kind == core::WorkloadKind::Pod
                                 ? "; a pod's would be the bubble of TopologyScope=pod, not built yet"
                                 : "")};
    if (settings_.policy != core::CpuManagerPolicy::Static && !request.exclusiveCpus)
        return {request, {}, std::nullopt};
    return assignment().expand(workload, request, desired, alsoTaken);
}

core::Resources CpuManager::placed(const core::Resources& desired, core::Resources write) const
{
    if (settings_.policy != core::CpuManagerPolicy::Static || desired.exclusiveCpus.value_or(0) > 0 ||
        !write.allowedCpus)
        return write;
    write.allowedCpus = assignment().sharedCpusFor(write.allowedCpus);
    return write;
}

void CpuManager::keepOnSharedPool(const std::vector<Instance>& listed)
{
    if (settings_.policy != core::CpuManagerPolicy::Static)
        return;
    // One reading of the slices for the whole pass.
    const auto now = assignment();
    std::set<std::string> cgroupPaths;
    for (const Instance& instance : listed) {
        place(instance, now, {});
        cgroupPaths.insert(instance.cgroupPath);
    }
    store_.keepNarrowedCpusets(cgroupPaths);
}

void CpuManager::keepOnSharedPool(const Instance& instance, std::function<void()> placed)
{
    if (settings_.policy != core::CpuManagerPolicy::Static) {
        if (placed)
            placed();
        return;
    }
    place(instance, assignment(), std::move(placed));
}

void CpuManager::place(const Instance& instance, const core::CpuAssignment& now, std::function<void()> placed)
{
    // Whatever the way out, the caller hears of it once.
    const auto notPlacing = [&placed] {
        if (placed)
            placed();
    };
    if (instance.name.kind != core::WorkloadKind::Container || !instance.hasCgroup() ||
        placing_.contains(instance.cgroupPath))
        return notPlacing();
    const std::string name = instance.name.canonical();
    // Its own AllowedCpus, or its slice, are placed with its other limits.
    if (const auto record = store_.find(name); record && record->holdsAllocation && record->desired.allowedCpus)
        return notPlacing();
    const std::string cgroupPath = instance.cgroupPath;
    auto& backend = drivers_.forCgroup(cgroupPath);
    core::CpuSet current;
    try {
        current = backend.read(cgroupPath).allowedCpus.value_or(core::CpuSet{});
    } catch (const cgroup::CgroupError& error) {
        spdlog::debug("{}: cannot read its cgroup to place it on the shared pool: {}", name, error.what());
        return notPlacing();
    }
    // A container narrowed for a slice gets back what it had when the slice
    // goes; one never narrowed keeps its own cpuset, less the slices.
    const auto narrowed = store_.narrowedCpuset(cgroupPath);
    const core::CpuSet own = narrowed.value_or(current);
    core::Resources onPool;
    onPool.allowedCpus = now.sharedCpusFor(own);
    if (core::matches(cgroup::asBackendReads(backend, cgroupPath, onPool), core::Resources{.allowedCpus = current}))
        return notPlacing();
    if (!narrowed)
        store_.saveNarrowedCpuset(cgroupPath, current);
    else if (*onPool.allowedCpus == own)
        store_.removeNarrowedCpuset(cgroupPath);
    spdlog::info("{}: placing it on the shared pool ({})", name, core::describe(onPool));
    auto execution = std::make_unique<Execution>(
        loop_, std::vector<CgroupChange>{{&backend, cgroupPath, onPool}}, cgroup::ApplyOptions{},
        [this, name, cgroupPath, placed = std::move(placed)](Execution& done) {
            if (done.outcome() != cgroup::ApplyOutcome::Applied)
                spdlog::warn("{}: not placed on the shared pool: {}", name, done.message());
            if (placed)
                placed();
            // As ResourceManager::finishUpdate: the execution ends with this
            // callback, which must not use its captures after.
            const auto finished = placing_.extract(std::string(cgroupPath));
        },
        &peerCalls_);
    Execution& started = *execution;
    placing_.emplace(cgroupPath, std::move(execution));
    started.start();
}

}  // namespace resized::service
