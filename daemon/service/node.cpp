#include "service/node.h"

#include <sched.h>

#include <fstream>
#include <stdexcept>

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

}  // namespace

NodeInfo readNodeInfo(const std::filesystem::path& cgroupRoot)
{
    return {
        .cpus = affinityCpus(),
        .memoryTotal = memTotal(),
        .cgroupVersion = std::string(cgroup::versionName(cgroup::detectCgroupVersion(cgroupRoot))),
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
