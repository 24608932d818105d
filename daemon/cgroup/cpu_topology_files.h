#pragma once

#include <filesystem>

#include "core/cpu_topology.h"

namespace resized::cgroup {

// The online CPUs and where they sit, from sysfs under `sysRoot`:
// devices/system/cpu/online, each online CPU's topology/core_id and
// topology/physical_package_id, and devices/system/node/node*/cpulist. A
// kernel without NUMA support has no node directories: all CPUs are then on
// node 0. Throws std::runtime_error naming the file that could not be read
// or parsed, or the CPU that no node lists.
core::CpuTopology readCpuTopology(const std::filesystem::path& sysRoot = "/sys");

}  // namespace resized::cgroup
