#pragma once

#include <string>

#include "dictionary.h"

namespace resized::ctl {

// The Manager's properties as `resizectl node` shows them: version, cgroup
// version, runtime connection, the CPU manager (policy, NUMA nodes, shared,
// reserved and exclusive CPUs), then a table of capacity, allocated,
// reserved and available CPU and memory.
std::string formatNode(const Dictionary& properties, bool withLegend);

}  // namespace resized::ctl
