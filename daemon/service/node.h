#pragma once

#include <filesystem>
#include <string>

#include "core/admission.h"
#include "core/cpu_topology.h"
#include "core/cpuset.h"

namespace resized::service {

// What this node has, read once at start-up.
struct NodeInfo {
    core::CpuSet cpus;        // the CPUs this daemon may run on
    uint64_t memoryTotal = 0; // MemTotal
    std::string cgroupVersion;  // "v1" or "v2"
    // Every online CPU of the machine (containers run on all of them, not
    // only on `cpus`) and how they group into cores, sockets and NUMA nodes.
    core::CpuTopology topology{};
};

// Reads sched_getaffinity(2), /proc/meminfo and the CPU topology under
// `sysRoot`; throws std::runtime_error when the affinity or the memory
// cannot be read. A topology that cannot be read is logged, and `cpus` on
// one NUMA node stand in for it: the daemon can do without it until a
// CPU manager policy packs slices by it.
NodeInfo readNodeInfo(const std::filesystem::path& cgroupRoot, const std::filesystem::path& sysRoot = "/sys");

// Allocatable capacity: the node's CPUs and memory minus the system reserve.
core::Amounts allocatable(const NodeInfo& node, const core::Amounts& systemReserve);

}  // namespace resized::service
