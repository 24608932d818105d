#pragma once

#include <string>

namespace resized::integration
{

// This machine's CPUs as its sysfs tells them, read by the test itself so
// that what the daemon reports is checked against the kernel, not against
// the daemon's own reading.

// /sys/devices/system/cpu/online as the kernel writes it ("0-3,6").
std::string onlineCpuList();

// The NUMA nodes that hold an online CPU; 1 on a kernel without NUMA
// support (no /sys/devices/system/node), where every CPU is on node 0.
unsigned numaNodesWithCpus();

} // namespace resized::integration
