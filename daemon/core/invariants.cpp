#include "core/invariants.h"

#include <algorithm>

namespace resized::core {
namespace {

Amounts atLeast(const Amounts& floor, const Amounts& amounts)
{
    return {std::max(floor.cpuMillis, amounts.cpuMillis), std::max(floor.memory, amounts.memory)};
}

Amounts atMost(const Amounts& ceiling, const Amounts& amounts)
{
    return {std::min(ceiling.cpuMillis, amounts.cpuMillis), std::min(ceiling.memory, amounts.memory)};
}

void checkLevel(const AdmittedState::Level& level, Tolerances& tolerances, std::vector<std::string>& broken)
{
    const Amounts used = level.allocated + level.reserved;
    const auto [entry, first] = tolerances.try_emplace(level.name);
    Tolerance& tolerance = entry->second;
    if (first || tolerance.capacity != level.capacity)
        tolerance = {level.capacity, atLeast(level.capacity, used)};
    const std::string where = level.name.empty() ? "the node" : "pool " + level.name;
    const auto bound = [&](uint64_t allowed, uint64_t capacity, const char* unit) {
        return std::to_string(capacity) + unit +
               (allowed > capacity ? " (" + std::to_string(allowed) + unit + " held when it was lowered)" : "");
    };
    if (used.cpuMillis > tolerance.allowed.cpuMillis)
        broken.push_back(where + " has " + std::to_string(used.cpuMillis) + "m CPU allocated and reserved, over its " +
                         bound(tolerance.allowed.cpuMillis, level.capacity.cpuMillis, "m"));
    if (used.memory > tolerance.allowed.memory)
        broken.push_back(where + " has " + std::to_string(used.memory) +
                         " bytes of memory allocated and reserved, over its " +
                         bound(tolerance.allowed.memory, level.capacity.memory, " bytes"));
    tolerance.allowed = atLeast(level.capacity, atMost(tolerance.allowed, used));
}

void checkPod(const AdmittedState::Pod& pod, std::vector<std::string>& broken)
{
    for (const auto& [member, amounts] : pod.members) {
        if (pod.limit.cpuMillis > 0 && amounts.cpuMillis > pod.limit.cpuMillis)
            broken.push_back(member + " holds " + std::to_string(amounts.cpuMillis) + "m CPU, over its pod " +
                             pod.name + "'s " + std::to_string(pod.limit.cpuMillis) + "m");
        if (pod.limit.memory > 0 && amounts.memory > pod.limit.memory)
            broken.push_back(member + " holds " + std::to_string(amounts.memory) + " bytes of memory, over its pod " +
                             pod.name + "'s " + std::to_string(pod.limit.memory));
    }
}

// A member's slice comes out of its own pod's bubble.
bool nested(const std::string& holder, const Slice& slice, const std::string& other)
{
    return !slice.pod.empty() && other == "pod:" + slice.pod && !holder.starts_with("pod:");
}

}  // namespace

std::vector<std::string> brokenInvariants(const AdmittedState& state, Tolerances& tolerances)
{
    std::vector<std::string> broken;
    checkLevel(state.node, tolerances, broken);
    for (const auto& pool : state.pools)
        checkLevel(pool, tolerances, broken);
    for (const auto& pod : state.pods)
        checkPod(pod, broken);
    for (auto first = state.slices.begin(); first != state.slices.end(); ++first) {
        if (const CpuSet reserved = intersection(first->second.cpus, state.reservedCpus); !reserved.empty())
            broken.push_back(first->first + "'s slice holds the reserved CPUs " + formatCpuSet(reserved));
        for (auto second = std::next(first); second != state.slices.end(); ++second) {
            if (nested(first->first, first->second, second->first) ||
                nested(second->first, second->second, first->first))
                continue;
            if (const CpuSet shared = intersection(first->second.cpus, second->second.cpus); !shared.empty())
                broken.push_back("the slices of " + first->first + " and " + second->first + " share the CPUs " +
                                 formatCpuSet(shared));
        }
    }
    return broken;
}

}  // namespace resized::core
