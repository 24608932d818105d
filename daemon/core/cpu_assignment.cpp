#include "core/cpu_assignment.h"

namespace resized::core {
namespace {

constexpr std::string_view kLevel = "CPU manager: ";

SliceRequest refused(std::string reason) { return {{}, {}, std::string(kLevel) + reason}; }

std::string podWorkload(const std::string& pod) { return WorkloadName{WorkloadKind::Pod, pod}.canonical(); }

// The pod `workload` names, "" when it names no pod.
std::string podNamed(const std::string& workload)
{
    const auto parsed = parseWorkloadName(workload);
    return parsed && parsed->kind == WorkloadKind::Pod ? parsed->name : std::string();
}

std::string cpusNamed(const CpuSet& cpus)
{
    return (cpus.size() == 1 ? "CPU " : "CPUs ") + formatCpuSet(cpus) + (cpus.size() == 1 ? " is" : " are");
}

std::string namesOf(const std::map<std::string, Slice>& slices)
{
    std::string names;
    for (const auto& [workload, slice] : slices)
        names += (names.empty() ? "" : ", ") + workload;
    return names;
}

}  // namespace

std::string_view toString(CpuManagerPolicy policy)
{
    return policy == CpuManagerPolicy::Static ? "static" : "none";
}

std::optional<CpuManagerPolicy> parseCpuManagerPolicy(std::string_view text)
{
    if (text == "none")
        return CpuManagerPolicy::None;
    if (text == "static")
        return CpuManagerPolicy::Static;
    return std::nullopt;
}

std::string_view toString(TopologyScope scope) { return scope == TopologyScope::Pod ? "pod" : "container"; }

std::optional<TopologyScope> parseTopologyScope(std::string_view text)
{
    if (text == "container")
        return TopologyScope::Container;
    if (text == "pod")
        return TopologyScope::Pod;
    return std::nullopt;
}

CpuAssignment::CpuAssignment(const CpuTopology& topology, CpuManagerSettings settings,
                             std::map<std::string, Slice> slices)
    : topology_(topology), settings_(std::move(settings)), slices_(std::move(slices))
{
    for (const auto& [workload, slice] : slices_)
        exclusive_.insert(slice.cpus.begin(), slice.cpus.end());
}

std::optional<std::string> CpuAssignment::holderOf(const CpuSet& cpus) const
{
    // A member's slice is inside its pod's bubble: the bubble is named.
    for (const auto& [workload, slice] : slices_)
        if (!intersection(slice.cpus, cpus).empty() && !bubbleOf(slice.pod))
            return workload;
    return std::nullopt;
}

const Slice* CpuAssignment::bubbleOf(const std::string& pod) const
{
    if (pod.empty() || settings_.scope != TopologyScope::Pod)
        return nullptr;
    const auto bubble = slices_.find(podWorkload(pod));
    return bubble == slices_.end() ? nullptr : &bubble->second;
}

std::map<std::string, Slice> CpuAssignment::memberSlices(const std::string& pod) const
{
    std::map<std::string, Slice> members;
    if (!bubbleOf(pod))
        return members;
    for (const auto& [workload, slice] : slices_)
        if (slice.pod == pod)
            members.emplace(workload, slice);
    return members;
}

CpuSet CpuAssignment::podShared(const std::string& pod) const
{
    const Slice* bubble = bubbleOf(pod);
    if (!bubble)
        return {};
    CpuSet shared = bubble->cpus;
    for (const auto& [member, slice] : memberSlices(pod))
        shared = difference(shared, slice.cpus);
    return shared;
}

AssignmentCounts CpuAssignment::assignmentCounts() const
{
    AssignmentCounts counts;
    for (const auto& [workload, slice] : slices_)
        if (podNamed(workload).empty())
            ++(bubbleOf(slice.pod) ? counts.podExclusive : counts.nodeExclusive);
    return counts;
}

CpuSet CpuAssignment::takenByOthers(const SliceHolder& holder) const
{
    const std::string ownPod = podNamed(holder.workload);
    const bool inBubble = bubbleOf(holder.pod) != nullptr;
    CpuSet taken;
    for (const auto& [workload, slice] : slices_) {
        const bool counts = inBubble ? slice.pod == holder.pod
                                     : ownPod.empty() || slice.pod != ownPod;
        if (workload != holder.workload && counts)
            taken.insert(slice.cpus.begin(), slice.cpus.end());
    }
    return taken;
}

SliceRequest CpuAssignment::expand(const SliceHolder& holder, const Resources& request, const Resources& desired,
                                   const CpuSet& alsoTaken) const
{
    if (request.exclusiveCpus.value_or(0) > 0) {
        if (holder.kind == WorkloadKind::Unit)
            return refused("exclusive CPUs are given to containers and pods only");
        if (holder.kind == WorkloadKind::Pod && settings_.scope != TopologyScope::Pod)
            return refused("a pod's exclusive CPUs are a bubble for its members, which needs [CpuManager] "
                           "TopologyScope=pod; with TopologyScope=container its members take slices themselves");
    }
    if (request.exclusiveCpus)
        return holder.kind == WorkloadKind::Pod ? expandBubble(holder, request, desired, alsoTaken)
                                                : expandExclusive(holder, request, desired, alsoTaken);
    const auto held = slices_.find(holder.workload);
    if (held != slices_.end() && (request.cpuMillis || request.allowedCpus))
        return refused(holder.workload + " holds the exclusive CPUs " + formatCpuSet(held->second.cpus) +
                       ", without a quota and on no other CPU; ExclusiveCpus=0 gives them back first");
    if (settings_.policy == CpuManagerPolicy::Static && request.allowedCpus) {
        if (bubbleOf(holder.pod)) {
            const CpuSet outside = difference(*request.allowedCpus, podShared(holder.pod));
            if (!outside.empty())
                return refused(cpusNamed(outside) + " not in the shared pool of pod " + holder.pod + " (" +
                               formatCpuSet(podShared(holder.pod)) + "), where its members run");
        }
        const CpuSet taken = intersection(*request.allowedCpus, exclusive_);
        if (!taken.empty() && !bubbleOf(holder.pod))
            return refused(cpusNamed(taken) + " in the exclusive slice of " +
                           holderOf(taken).value_or("another workload") + "; the shared pool is " +
                           formatCpuSet(shared()));
    }
    return {request, {}, std::nullopt};
}

SliceRequest CpuAssignment::expandExclusive(const SliceHolder& holder, const Resources& request,
                                            const Resources& desired, const CpuSet& alsoTaken,
                                            const CpuSet& kept) const
{
    const uint64_t count = *request.exclusiveCpus;
    const auto held = slices_.find(holder.workload);
    Resources expanded = request;
    if (count == 0) {
        // Back on the shared pool; the quota stays off until a CpuMillis.
        if (held != slices_.end() || desired.exclusiveCpus.value_or(0) > 0) {
            expanded.allowedCpus = CpuSet{};
            expanded.memoryNodes = CpuSet{};
        }
        return {std::move(expanded), {}, std::nullopt};
    }
    if (settings_.policy != CpuManagerPolicy::Static)
        return refused("the policy is \"none\": exclusive CPUs need [CpuManager] Policy=static");

    const Slice* bubble = bubbleOf(holder.pod);
    CpuSet taken = alsoTaken;
    const CpuSet others = takenByOthers(holder);
    taken.insert(others.begin(), others.end());
    // A member's slice comes out of its pod's bubble, which the node counts
    // taken already.
    const CpuSet available = bubble ? bubble->cpus : difference(topology_.cpus(), settings_.reserved);
    const CpuSet free = difference(available, taken);

    Slice current;
    if (held != slices_.end()) {
        current = held->second;
    } else if (desired.exclusiveCpus.value_or(0) > 0 && desired.allowedCpus && !desired.allowedCpus->empty() &&
               isSubset(*desired.allowedCpus, free)) {
        // Its allocation was released (a removal's grace ran out) and it is
        // admitted again: its old CPUs, if no one took them.
        current = {*desired.allowedCpus, *desired.allowedCpus};
    }
    Slice resized = current;
    for (const unsigned cpu : intersection(kept, current.cpus))
        resized.granted.insert(cpu);
    const SliceChoice choice =
        resizeSlice(topology_, resized, free, static_cast<unsigned>(count), settings_.slices);
    if (!choice.cpus)
        return refused(choice.refusal + (bubble ? " in the bubble of pod " + holder.pod : ""));
    CpuSet takenAfter = taken;
    takenAfter.insert(choice.cpus->begin(), choice.cpus->end());
    if (bubble && difference(bubble->cpus, takenAfter).empty())
        return refused("a slice of " + std::to_string(count) + " would leave the shared pool of pod " + holder.pod +
                       " empty (its bubble " + formatCpuSet(bubble->cpus) + ", " +
                       std::to_string(intersection(bubble->cpus, taken).size()) +
                       " CPUs in other members' slices): its infra container and other members run there");
    if (!bubble && difference(topology_.cpus(), takenAfter).empty())
        return refused("a slice of " + std::to_string(count) + " would leave the shared pool empty (" +
                       std::to_string(topology_.cpus().size()) + " CPUs online, " +
                       std::to_string(taken.size()) + " in other slices)");

    expanded.allowedCpus = *choice.cpus;
    expanded.memoryNodes = topology_.numaNodesOf(*choice.cpus);
    expanded.cpuMillis = kUnlimited;
    return {std::move(expanded), current.cpus.empty() ? *choice.cpus : current.granted, std::nullopt};
}

SliceRequest CpuAssignment::expandBubble(const SliceHolder& holder, const Resources& request,
                                         const Resources& desired, const CpuSet& alsoTaken) const
{
    const std::string pod = podNamed(holder.workload);
    const bool holdsBubble = bubbleOf(pod) != nullptr;
    std::map<std::string, Slice> members;
    for (const auto& [workload, slice] : slices_)
        if (slice.pod == pod)
            members.emplace(workload, slice);
    if (*request.exclusiveCpus == 0) {
        if (holdsBubble && !members.empty())
            return refused("members of pod " + pod + " hold slices of its bubble (" + namesOf(members) +
                           "); ExclusiveCpus=0 on them gives them back first");
        return expandExclusive(holder, request, desired, alsoTaken);
    }
    if (!holdsBubble && !members.empty())
        return refused("members of pod " + pod + " hold slices from the node (" + namesOf(members) +
                       "), which a bubble would not hold; ExclusiveCpus=0 on them gives them back first");
    // Resized like a container's slice, never giving back its members'
    // slices, and always keeping a shared pool for the rest of the pod.
    CpuSet inSlices;
    for (const auto& [member, slice] : members)
        inSlices.insert(slice.cpus.begin(), slice.cpus.end());
    SliceRequest expanded = expandExclusive(holder, request, desired, alsoTaken, inSlices);
    if (expanded.refusal)
        return expanded;
    if (difference(*expanded.request.allowedCpus, inSlices).empty())
        return refused("a bubble of " + std::to_string(*request.exclusiveCpus) + " for pod " + pod +
                       " would leave its shared pool empty (" + std::to_string(inSlices.size()) +
                       " CPUs in its members' slices): its infra container and other members run there");
    return expanded;
}

CpuSet CpuAssignment::sharedCpusFor(const std::optional<CpuSet>& asked, const std::string& pod) const
{
    if (settings_.policy != CpuManagerPolicy::Static)
        return asked.value_or(CpuSet{});
    const bool inBubble = bubbleOf(pod) != nullptr;
    const CpuSet pool = inBubble ? podShared(pod) : shared();
    if (asked && !asked->empty()) {
        CpuSet kept = inBubble ? intersection(*asked, pool) : difference(*asked, exclusive_);
        if (!kept.empty())
            return kept;
    }
    return pool == topology_.cpus() ? CpuSet{} : pool;
}

Resources withExclusiveCpusHeld(Resources actual, const Resources& desired)
{
    if (!desired.exclusiveCpus)
        return actual;
    const bool onTheSlice = *desired.exclusiveCpus > 0 && actual.allowedCpus && desired.allowedCpus &&
                            *actual.allowedCpus == *desired.allowedCpus;
    actual.exclusiveCpus = onTheSlice ? *desired.exclusiveCpus : 0;
    return actual;
}

}  // namespace resized::core
