#include "core/cpu_assignment.h"

namespace resized::core {
namespace {

constexpr std::string_view kLevel = "CPU manager: ";

SliceRequest refused(std::string reason) { return {{}, {}, std::string(kLevel) + reason}; }

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

CpuAssignment::CpuAssignment(const CpuTopology& topology, CpuManagerSettings settings,
                             std::map<std::string, Slice> slices)
    : topology_(topology), settings_(std::move(settings)), slices_(std::move(slices))
{
    for (const auto& [workload, slice] : slices_)
        exclusive_.insert(slice.cpus.begin(), slice.cpus.end());
}

std::optional<std::string> CpuAssignment::holderOf(const CpuSet& cpus) const
{
    for (const auto& [workload, slice] : slices_)
        if (!intersection(slice.cpus, cpus).empty())
            return workload;
    return std::nullopt;
}

SliceRequest CpuAssignment::expand(const std::string& workload, const Resources& request, const Resources& desired,
                                   const CpuSet& alsoTaken) const
{
    if (request.exclusiveCpus)
        return expandExclusive(workload, request, desired, alsoTaken);
    const auto held = slices_.find(workload);
    if (held != slices_.end() && (request.cpuMillis || request.allowedCpus))
        return refused(workload + " holds the exclusive CPUs " + formatCpuSet(held->second.cpus) + ", without a " +
                       "quota and on no other CPU; ExclusiveCpus=0 gives them back first");
    if (settings_.policy == CpuManagerPolicy::Static && request.allowedCpus) {
        const CpuSet taken = intersection(*request.allowedCpus, exclusive_);
        if (!taken.empty())
            return refused((taken.size() == 1 ? "CPU " : "CPUs ") + formatCpuSet(taken) +
                           (taken.size() == 1 ? " is" : " are") + " in the exclusive slice of " +
                           holderOf(taken).value_or("another workload") + "; the shared pool is " +
                           formatCpuSet(shared()));
    }
    return {request, {}, std::nullopt};
}

SliceRequest CpuAssignment::expandExclusive(const std::string& workload, const Resources& request,
                                            const Resources& desired, const CpuSet& alsoTaken) const
{
    const uint64_t count = *request.exclusiveCpus;
    const auto held = slices_.find(workload);
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

    CpuSet takenByOthers = alsoTaken;
    for (const auto& [holder, slice] : slices_)
        if (holder != workload)
            takenByOthers.insert(slice.cpus.begin(), slice.cpus.end());
    const CpuSet free = difference(difference(topology_.cpus(), settings_.reserved), takenByOthers);

    Slice current;
    if (held != slices_.end()) {
        current = held->second;
    } else if (desired.exclusiveCpus.value_or(0) > 0 && desired.allowedCpus && !desired.allowedCpus->empty() &&
               isSubset(*desired.allowedCpus, free)) {
        // Its allocation was released (a removal's grace ran out) and it is
        // admitted again: its old CPUs, if no one took them.
        current = {*desired.allowedCpus, *desired.allowedCpus};
    }
    const SliceChoice choice =
        resizeSlice(topology_, current, free, static_cast<unsigned>(count), settings_.slices);
    if (!choice.cpus)
        return refused(choice.refusal);
    CpuSet exclusiveAfter = takenByOthers;
    exclusiveAfter.insert(choice.cpus->begin(), choice.cpus->end());
    if (difference(topology_.cpus(), exclusiveAfter).empty())
        return refused("a slice of " + std::to_string(count) + " would leave the shared pool empty (" +
                       std::to_string(topology_.cpus().size()) + " CPUs online, " +
                       std::to_string(takenByOthers.size()) + " in other slices)");

    expanded.allowedCpus = *choice.cpus;
    expanded.memoryNodes = topology_.numaNodesOf(*choice.cpus);
    expanded.cpuMillis = kUnlimited;
    return {std::move(expanded), current.cpus.empty() ? *choice.cpus : current.granted, std::nullopt};
}

std::optional<CpuSet> CpuAssignment::sharedCpusFor(const std::optional<CpuSet>& asked) const
{
    if (settings_.policy != CpuManagerPolicy::Static)
        return std::nullopt;
    const CpuSet pool = shared();
    if (asked && !asked->empty()) {
        CpuSet kept = difference(*asked, exclusive_);
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
