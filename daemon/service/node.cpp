#include "service/node.h"

#include <sched.h>

#include <spdlog/spdlog.h>

#include <fstream>
#include <map>
#include <stdexcept>
#include <utility>

#include "cgroup/cpu_topology_files.h"
#include "cgroup/detect.h"

namespace resized::service {
namespace {

core::CpuSet affinityCpus()
{
    cpu_set_t mask;
    CPU_ZERO(&mask);
    if (sched_getaffinity(0, sizeof(mask), &mask) != 0)
        throw std::runtime_error("sched_getaffinity failed");
    core::CpuSet cpus;
    for (unsigned cpu = 0; cpu < CPU_SETSIZE; ++cpu)
        if (CPU_ISSET(cpu, &mask))
            cpus.insert(cpu);
    return cpus;
}

uint64_t memTotal()
{
    std::ifstream meminfo("/proc/meminfo");
    std::string key;
    uint64_t kib = 0;
    std::string unit;
    while (meminfo >> key >> kib >> unit)
        if (key == "MemTotal:")
            return kib * 1024;
    throw std::runtime_error("/proc/meminfo has no MemTotal");
}

// Nothing tells which of `cpus` share a core or a socket: each counts as a
// core of its own, so no slice would take a sibling it cannot see.
core::CpuTopology singleNodeTopology(const core::CpuSet& cpus)
{
    std::map<unsigned, core::CpuLocation> locations;
    for (const unsigned cpu : cpus)
        locations[cpu] = {.socket = 0, .coreId = cpu, .numaNode = 0};
    return core::CpuTopology(std::move(locations));
}

core::CpuTopology topologyOr(const std::filesystem::path& sysRoot, const core::CpuSet& fallbackCpus)
{
    try {
        return cgroup::readCpuTopology(sysRoot);
    } catch (const std::runtime_error& error) {
        spdlog::warn("cannot read the CPU topology ({}); taking CPUs {} as one NUMA node", error.what(),
                     core::formatCpuSet(fallbackCpus));
        return singleNodeTopology(fallbackCpus);
    }
}

}  // namespace

NodeInfo readNodeInfo(const std::filesystem::path& cgroupRoot, const std::filesystem::path& sysRoot)
{
    auto cpus = affinityCpus();
    auto topology = topologyOr(sysRoot, cpus);
    return {
        .cpus = std::move(cpus),
        .memoryTotal = memTotal(),
        .cgroupVersion = std::string(cgroup::versionName(cgroup::detectCgroupVersion(cgroupRoot))),
        .topology = std::move(topology),
    };
}

core::Amounts allocatable(const NodeInfo& node, const core::Amounts& systemReserve)
{
    const uint64_t cpu = node.cpus.size() * 1000;
    return {
        cpu > systemReserve.cpuMillis ? cpu - systemReserve.cpuMillis : 0,
        node.memoryTotal > systemReserve.memory ? node.memoryTotal - systemReserve.memory : 0,
    };
}

}  // namespace resized::service
