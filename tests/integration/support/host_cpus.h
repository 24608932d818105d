#pragma once

#include <string>

namespace resized::integration
{

// This machine's CPUs as its sysfs tells them, read by the test itself so
// that what the daemon reports is checked against the kernel, not against
// the daemon's own reading.

// /sys/devices/system/cpu/online as the kernel writes it ("0-3,6").
std::string onlineCpuList();

// How many CPUs are online.
unsigned onlineCpuCount();

// Whether `cpus`, a list in the kernel's format, is exactly one online CPU.
bool isOneOnlineCpu(const std::string& cpus);

// The online CPUs but `cpus` (a list in the kernel's format), in the
// kernel's format, which is also the daemon's: what a container runs on
// when `cpus` are a slice, "" when they are every CPU.
std::string onlineCpusExcept(const std::string& cpus);

// The NUMA nodes that hold an online CPU; 1 on a kernel without NUMA
// support (no /sys/devices/system/node), where every CPU is on node 0.
unsigned numaNodesWithCpus();

} // namespace resized::integration
