#pragma once

#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

#include "core/cpu_topology.h"
#include "core/cpuset.h"

// Machines the CPU manager's tests pack slices on. The first three are the
// kubelet's own test fixtures (pkg/kubelet/cm/cpumanager/policy_test.go), so
// its tables of expected slices apply as they are.
namespace resized::test {

// A CPU list the test spells out ("0-3,6").
inline core::CpuSet cpus(std::string_view text)
{
    const auto parsed = core::parseCpuSet(text);
    if (!parsed)
        throw std::invalid_argument("bad CPU list in a test: " + std::string(text));
    return *parsed;
}

inline core::CpuTopology topologyOf(unsigned cpuCount, const std::function<core::CpuLocation(unsigned)>& locate)
{
    std::map<unsigned, core::CpuLocation> locations;
    for (unsigned cpu = 0; cpu < cpuCount; ++cpu)
        locations[cpu] = locate(cpu);
    return core::CpuTopology(std::move(locations));
}

// 1 socket, 4 cores of 2 threads; CPU n and n + 4 share a core.
inline core::CpuTopology singleSocketHT()
{
    return topologyOf(8, [](unsigned cpu) { return core::CpuLocation{.socket = 0, .coreId = cpu % 4, .numaNode = 0}; });
}

// 2 sockets (one NUMA node each), 6 cores of 2 threads: even CPUs on socket
// 0, odd on socket 1; CPU n and n + 6 share a core.
inline core::CpuTopology dualSocketHT()
{
    return topologyOf(12, [](unsigned cpu) {
        return core::CpuLocation{.socket = cpu % 2, .coreId = cpu % 6, .numaNode = cpu % 2};
    });
}

// A dual Xeon Gold 6230: 2 sockets of 2 NUMA nodes, 20 cores of 2 threads
// each; node n holds CPUs 10n–10n+9 and their siblings 40 higher.
inline core::CpuTopology dualSocketMultiNumaPerSocketHT()
{
    return topologyOf(80, [](unsigned cpu) {
        const unsigned core = cpu % 40;
        return core::CpuLocation{.socket = core / 20, .coreId = core, .numaNode = core / 10};
    });
}

// QEMU's -smp 4,sockets=2,cores=1,threads=2 with a NUMA node per socket: two
// cores that the kernel both numbers 0, of 2 threads each.
inline core::CpuTopology qemuTwoNodesHT()
{
    return topologyOf(4, [](unsigned cpu) {
        return core::CpuLocation{.socket = cpu / 2, .coreId = 0, .numaNode = cpu / 2};
    });
}

}  // namespace resized::test
