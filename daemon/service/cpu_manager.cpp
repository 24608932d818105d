#include "service/cpu_manager.h"

#include <spdlog/spdlog.h>

#include <filesystem>
#include <set>

#include "cgroup/limits_backend.h"
#include "core/drift.h"
#include "service/known_container.h"

namespace resized::service {
namespace {

// Podman names a container's cgroup with a leading slash, and a pod's under
// systemd without one.
std::string rooted(const std::string& cgroupPath)
{
    return cgroupPath.starts_with('/') ? cgroupPath : "/" + cgroupPath;
}

}  // namespace

CpuManager::CpuManager(store::StateStore& store, const core::CpuTopology& topology,
                       core::CpuManagerSettings settings, cgroup::DriverSelector& drivers)
    : store_(store), topology_(topology), settings_(std::move(settings)), drivers_(drivers)
{
}

CpuManager::~CpuManager() = default;

core::CpuAssignment CpuManager::assignment() const
{
    return core::CpuAssignment(topology_, settings_, slicesInForce());
}

std::map<std::string, core::Slice> CpuManager::slicesInForce() const
{
    if (settings_.policy != core::CpuManagerPolicy::Static)
        return {};
    return store_.heldSlices();
}

CpuPools CpuManager::pools() const
{
    if (settings_.policy != core::CpuManagerPolicy::Static)
        return {.policy = "none", .shared = topology_.cpus(), .reserved = {}, .exclusive = {}};
    const auto now = assignment();
    return {.policy = std::string(core::toString(settings_.policy)),
            .shared = now.shared(),
            .reserved = settings_.reserved,
            .exclusive = now.exclusive()};
}

core::AssignmentCounts CpuManager::assignmentCounts() const
{
    core::AssignmentCounts counts = assignment().assignmentCounts();
    counts.podShared = onPodSharedPools_;
    return counts;
}

bool CpuManager::slicesFromPodBubble(const std::string& workload) const
{
    const auto name = core::parseWorkloadName(workload);
    if (!name || name->kind != core::WorkloadKind::Container)
        return false;
    const auto record = store_.find(name->canonical());
    return record && !record->pod.empty() && assignment().bubbleOf(record->pod);
}

core::SliceRequest CpuManager::expand(const core::SliceHolder& holder, const core::Resources& request,
                                      const core::Resources& desired, const core::CpuSet& alsoTaken) const
{
    if (settings_.policy != core::CpuManagerPolicy::Static && !request.exclusiveCpus)
        return {request, {}, std::nullopt};
    return assignment().expand(holder, request, desired, alsoTaken);
}

core::Resources CpuManager::placed(const core::SliceHolder& holder, const core::Resources& desired,
                                   core::Resources write) const
{
    if (settings_.policy != core::CpuManagerPolicy::Static || desired.exclusiveCpus.value_or(0) > 0 ||
        !write.allowedCpus || holder.kind == core::WorkloadKind::Pod)
        return write;
    write.allowedCpus = assignment().sharedCpusFor(write.allowedCpus, holder.pod);
    return write;
}

std::vector<CgroupChange> CpuManager::changesFor(const store::WorkloadRecord& record, const core::Resources& write)
{
    auto& backend = drivers_.forCgroup(record.cgroupPath);
    const CgroupChange own{&backend, record.cgroupPath, write};
    // Under the policy "none" too: a bubble an earlier static run left is
    // given back, its members with it.
    const bool bubbleMoves = record.kind == core::WorkloadKind::Pod && write.allowedCpus &&
                             (write.exclusiveCpus || record.desired.exclusiveCpus.value_or(0) > 0);
    if (!bubbleMoves)
        return {own};
    std::vector<CgroupChange> changes = podChildrenPlaced(record, write);
    // Narrowing: the children are inside the new cpuset first.
    const core::CpuSet now = backend.read(record.cgroupPath).allowedCpus.value_or(core::CpuSet{});
    const core::CpuSet& after = *write.allowedCpus;
    const bool widens = after.empty() || (!now.empty() && core::isSubset(now, after));
    changes.insert(widens ? changes.begin() : changes.end(), own);
    return changes;
}

std::vector<CgroupChange> CpuManager::podChildrenPlaced(const store::WorkloadRecord& record,
                                                         const core::Resources& podWrite)
{
    const auto pod = core::parseWorkloadName(record.name);
    const std::string podName = pod ? pod->name : std::string();
    // The slices as they will be: the pod's as its record will hold it.
    auto slices = slicesInForce();
    if (record.desired.exclusiveCpus.value_or(0) > 0)
        slices[record.name] = {record.desired.allowedCpus.value_or(core::CpuSet{}), record.exclusiveCpusGranted, {}};
    else
        slices.erase(record.name);
    const core::CpuAssignment after(topology_, settings_, std::move(slices));
    std::map<std::string, store::WorkloadRecord> managed;
    for (const auto& member : store_.podMemberAllocations(podName))
        if (auto found = store_.find(member.workload); found && found->holdsAllocation && found->desired.allowedCpus)
            managed.emplace(rooted(found->cgroupPath), std::move(*found));

    std::vector<CgroupChange> changes;
    auto& podBackend = drivers_.forCgroup(record.cgroupPath);
    for (const std::string& listed : podBackend.childCgroups(record.cgroupPath)) {
        const std::string child = rooted(listed);
        auto& backend = drivers_.forCgroup(child);
        core::Resources target;
        if (const auto member = managed.find(child); member != managed.end()) {
            // Its slice, or its own cpuset on the pod's shared pool.
            const core::Resources& desired = member->second.desired;
            target.allowedCpus = desired.exclusiveCpus.value_or(0) > 0
                                     ? desired.allowedCpus
                                     : after.sharedCpusFor(desired.allowedCpus, podName);
            target.memoryNodes = desired.exclusiveCpus.value_or(0) > 0 ? desired.memoryNodes : podWrite.memoryNodes;
        } else {
            // As keepOnSharedPool() places a container: its own cpuset,
            // remembered when first narrowed, on the pool.
            const auto narrowed = store_.narrowedCpuset(child);
            core::CpuSet own;
            try {
                own = narrowed.value_or(backend.read(child).allowedCpus.value_or(core::CpuSet{}));
            } catch (const cgroup::CgroupError& error) {
                spdlog::debug("{}: {} is gone or unreadable, not taken along: {}", record.name, child, error.what());
                continue;
            }
            target.allowedCpus = after.sharedCpusFor(own, podName);
            target.memoryNodes = podWrite.memoryNodes;
            if (!narrowed && *target.allowedCpus != own)
                store_.saveNarrowedCpuset(child, own);
            else if (narrowed && *target.allowedCpus == own)
                store_.removeNarrowedCpuset(child);
        }
        changes.push_back({&backend, child, std::move(target)});
    }
    return changes;
}

bool CpuManager::placesAny() const
{
    // Without the static policy only what a static run narrowed is put
    // back: nothing at all once that is done, the default's every time.
    return settings_.policy == core::CpuManagerPolicy::Static || store_.anyNarrowedCpuset();
}

std::vector<Placement> CpuManager::placementsOf(const std::vector<Instance>& listed,
                                               const std::set<std::string>& newerThanListing)
{
    std::erase_if(known_, [&](const auto& entry) { return !newerThanListing.contains(entry.first); });
    if (!placesAny())
        return {};
    // One reading of the slices for the whole pass.
    const auto now = assignment();
    std::vector<Placement> placements;
    std::set<std::string> cgroupPaths;
    onPodSharedPools_ = 0;
    for (const Instance& instance : listed) {
        if (instance.name.kind == core::WorkloadKind::Container && instance.hasCgroup()) {
            known_.try_emplace(instance.name.canonical(), instance);
            if (now.bubbleOf(instance.pod) && !now.slices().contains(instance.name.canonical()))
                ++onPodSharedPools_;
        }
        if (auto placement = placementOf(instance, now))
            placements.push_back(std::move(*placement));
        cgroupPaths.insert(instance.cgroupPath);
        // What a bubble narrowed inside a pod that is not a container
        // (conmon's cgroup) is remembered while the pod is there.
        if (instance.name.kind == core::WorkloadKind::Pod && instance.hasCgroup())
            for (const auto& child : drivers_.forCgroup(instance.cgroupPath).childCgroups(instance.cgroupPath))
                cgroupPaths.insert(rooted(child));
    }
    store_.keepNarrowedCpusets(cgroupPaths);
    return placements;
}

std::optional<Placement> CpuManager::placementOf(const Instance& instance)
{
    if (instance.name.kind == core::WorkloadKind::Container && instance.hasCgroup())
        known_.insert_or_assign(instance.name.canonical(), instance);
    return placementOf(instance, assignment());
}

std::vector<Placement> CpuManager::placementsOfKnown(const std::set<std::string>& except,
                                                    const std::set<std::string>& exceptPods)
{
    if (!placesAny())
        return {};
    const auto now = assignment();
    // The workloads resized manages are known by their binding too, also
    // those changed since the last pass.
    for (const auto& record : store_.workloads())
        if (auto bound = boundContainer(record))
            known_.insert_or_assign(record.name, std::move(*bound));
    std::vector<Placement> placements;
    for (const auto& [name, instance] : known_)
        if (!except.contains(name) && !exceptPods.contains(instance.pod))
            if (auto placement = placementOf(instance, now))
                placements.push_back(std::move(*placement));
    return placements;
}

void CpuManager::placing(const Placement& placement)
{
    if (placement.narrowedFrom)
        store_.saveNarrowedCpuset(placement.write.cgroup, *placement.narrowedFrom);
    else if (placement.givenBack)
        store_.removeNarrowedCpuset(placement.write.cgroup);
}

std::string CpuManager::bubbleHolding(const std::string& cgroupPath, const core::CpuAssignment& now) const
{
    const std::string parent = std::filesystem::path(rooted(cgroupPath)).parent_path();
    for (const auto& [workload, slice] : now.slices()) {
        const auto name = core::parseWorkloadName(workload);
        if (!name || name->kind != core::WorkloadKind::Pod)
            continue;
        const auto pod = store_.find(workload);
        if (pod && !pod->cgroupPath.empty() && rooted(pod->cgroupPath) == parent)
            return name->name;
    }
    return {};
}

std::optional<Placement> CpuManager::placementOf(const Instance& instance, const core::CpuAssignment& now) const
{
    if (instance.name.kind != core::WorkloadKind::Container || !instance.hasCgroup())
        return std::nullopt;
    const std::string name = instance.name.canonical();
    const std::string& cgroupPath = instance.cgroupPath;
    // A container narrowed for a slice gets back what it had when the slice
    // goes; one never narrowed keeps its own cpuset, less the slices.
    const auto narrowed = store_.narrowedCpuset(cgroupPath);
    // Without the static policy only what a static run narrowed is put back.
    if (settings_.policy != core::CpuManagerPolicy::Static && !narrowed)
        return std::nullopt;
    // Its own AllowedCpus, or its slice, are placed with its other limits:
    // also while its first change is being written, before it holds them.
    if (const auto record = store_.find(name);
        record && record->desired.allowedCpus &&
        (record->holdsAllocation || record->syncState == core::SyncState::Applying))
        return std::nullopt;
    auto& backend = drivers_.forCgroup(cgroupPath);
    core::CpuSet current;
    core::CpuSet parentAllows;
    try {
        current = backend.read(cgroupPath).allowedCpus.value_or(core::CpuSet{});
        parentAllows = backend.parentCpus(cgroupPath);
    } catch (const cgroup::CgroupError& error) {
        spdlog::debug("{}: cannot read its cgroup to place it on the shared pool: {}", name, error.what());
        return std::nullopt;
    }
    const core::CpuSet own = narrowed.value_or(current);
    core::Resources onPool;
    onPool.allowedCpus = now.sharedCpusFor(own, instance.pod.empty() ? bubbleHolding(cgroupPath, now) : instance.pod);
    // Inside a parent narrower than the pool (a pod forgotten with its
    // bubble, or given a cpuset of its own), what the parent allows of it:
    // cgroup v1 refuses more, and the parent is not resized's to widen.
    if (!onPool.allowedCpus->empty()) {
        const core::CpuSet allowed = core::intersection(*onPool.allowedCpus, parentAllows);
        if (allowed.empty()) {
            spdlog::debug("{}: its parent cgroup allows only CPUs {}, none of the shared pool {}", name,
                          core::formatCpuSet(parentAllows), core::formatCpuSet(*onPool.allowedCpus));
            return std::nullopt;
        }
        onPool.allowedCpus = allowed;
    }
    if (core::matches(cgroup::asBackendReads(backend, cgroupPath, onPool), core::Resources{.allowedCpus = current}))
        return std::nullopt;
    const bool givenBack = narrowed && *onPool.allowedCpus == own;
    // An empty cpuset is every CPU the parent allows.
    const core::CpuSet before = current.empty() ? parentAllows : current;
    const core::CpuSet after = onPool.allowedCpus->empty() ? parentAllows : *onPool.allowedCpus;
    spdlog::info("{}: placing it on the shared pool ({})", name, core::describe(onPool));
    return Placement{
        .workload = name,
        .write = {&backend, cgroupPath, std::move(onPool), /*mayVanish=*/true},
        .narrowedFrom = narrowed ? std::nullopt : std::optional(current),
        .givenBack = givenBack,
        .narrows = !core::isSubset(before, after),
    };
}

}  // namespace resized::service
