#include "cgroup_limits.h"

#include "support/cgroup_hierarchy.h"
#include "support/cgroup_v1.h"

#include <unistd.h>

#include <cstdint>
#include <limits>
#include <string>

namespace resized::integration
{

CgroupLimits CgroupLimits::read(const std::filesystem::path& cgroupPath)
{
    if (unifiedCgroupHierarchy())
    {
        const CpuMax cpuMax = readCpuMax(cgroupPath);
        return {
            .cpuQuotaUs = cpuMax.quotaUs ? static_cast<std::int64_t>(*cpuMax.quotaUs) : -1,
            .cpuPeriodUs = static_cast<std::int64_t>(cpuMax.periodUs),
            .memoryLimit = readMemoryMax(cgroupPath).value_or(unlimitedMemoryReading()),
            .cpus = cpusOf(cgroupPath),
        };
    }
    const CgroupV1 cgroup(cgroupPath);
    auto unsignedNumber = [&](const char* controller, const char* file) {
        return std::stoull(cgroup.read(controller, file));
    };
    return {
        .cpuQuotaUs = cgroup.readNumber("cpu", "cpu.cfs_quota_us"),
        .cpuPeriodUs = cgroup.readNumber("cpu", "cpu.cfs_period_us"),
        .memoryLimit = unsignedNumber("memory", "memory.limit_in_bytes"),
        .memorySoftLimit = unsignedNumber("memory", "memory.soft_limit_in_bytes"),
        .cpuShares = unsignedNumber("cpu", "cpu.shares"),
        .cpus = cgroup.read("cpuset", "cpuset.cpus"),
    };
}

std::optional<std::uint64_t> CgroupLimits::cpuMillis() const
{
    if (cpuQuotaUs < 0)
    {
        return std::nullopt;
    }
    return static_cast<std::uint64_t>(cpuQuotaUs) * 1000 /
           static_cast<std::uint64_t>(cpuPeriodUs);
}

std::ostream& operator<<(std::ostream& stream, const CgroupLimits& limits)
{
    return stream << "{ cfs_quota_us=" << limits.cpuQuotaUs
                  << " cfs_period_us=" << limits.cpuPeriodUs
                  << " limit_in_bytes=" << limits.memoryLimit
                  << " soft_limit_in_bytes=" << limits.memorySoftLimit
                  << " shares=" << limits.cpuShares << " cpus=\"" << limits.cpus
                  << "\" }";
}

std::uint64_t unlimitedMemoryReading()
{
    const auto pageSize = static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE));
    const auto largest =
        static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
    return largest / pageSize * pageSize;
}

} // namespace resized::integration
