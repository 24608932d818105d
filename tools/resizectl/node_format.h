#pragma once

#include <string>
#include <vector>

#include "dictionary.h"

namespace resized::ctl {

// An exclusive slice and the workload holding it; a pod's is its bubble.
struct HeldSlice {
    std::string workload;
    std::string cpus;
    std::string pod{};  // the holder's pod, "" when none
};

// The Manager's properties as `resizectl node` shows them: version, cgroup
// version, runtime connection, the CPU manager (policy, NUMA nodes, shared,
// reserved and exclusive CPUs, each slice under them with its holder, a
// bubble's members' slices under the bubble), then
// a table of capacity, allocated, reserved and available CPU and memory.
std::string formatNode(const Dictionary& properties, const std::vector<HeldSlice>& slices, bool withLegend);

// The slices the workloads' statuses (GetResourceStatus) hold: a Desired
// ExclusiveCpus above 0, its AllowedCpus being the slice.
std::vector<HeldSlice> slicesOf(const std::vector<Dictionary>& statuses);

}  // namespace resized::ctl
