#pragma once

#include <filesystem>
#include <string>

#include "core/admission.h"
#include "core/cpuset.h"

namespace resized::service {

// What this node has, read once at start-up.
struct NodeInfo {
    core::CpuSet cpus;        // the CPUs this daemon may run on
    uint64_t memoryTotal = 0; // MemTotal
    std::string cgroupVersion;  // "v1" or "v2"
};

// Reads sched_getaffinity(2) and /proc/meminfo; throws std::runtime_error
// when either cannot be read.
NodeInfo readNodeInfo(const std::filesystem::path& cgroupRoot);

// Allocatable capacity: the node's CPUs and memory minus the system reserve.
core::Amounts allocatable(const NodeInfo& node, const core::Amounts& systemReserve);

}  // namespace resized::service
