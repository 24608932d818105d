#include "container_limits.h"

#include "support/cgroup_hierarchy.h"
#include "support/cgroup_v1.h"

#include <exception>

namespace resized::integration::events
{

namespace
{

// memory.limit_in_bytes without a limit: the largest page-aligned counter.
constexpr std::int64_t unlimitedMemory = 0x7FFFFFFFFFFFF000;

void printLimit(std::ostream& stream, std::uint64_t value)
{
    if (value == noLimit)
    {
        stream << "none";
    }
    else
    {
        stream << value;
    }
}

} // namespace

std::ostream& operator<<(std::ostream& stream, const Limits& limits)
{
    stream << "{CpuMillis ";
    printLimit(stream, limits.cpuMillis);
    stream << ", MemoryMax ";
    printLimit(stream, limits.memoryMax);
    return stream << "}";
}

std::optional<Limits> readLimits(const std::filesystem::path& cgroupPath)
{
    const CgroupV1 cgroup(cgroupPath);
    try
    {
        if (unifiedCgroupHierarchy())
        {
            const CpuMax cpuMax = readCpuMax(cgroupPath);
            return Limits{
                .cpuMillis = cpuMax.quotaUs ? *cpuMax.quotaUs * 1000 / cpuMax.periodUs : noLimit,
                .memoryMax = readMemoryMax(cgroupPath).value_or(noLimit),
            };
        }
        const std::int64_t quota = cgroup.readNumber("cpu", "cpu.cfs_quota_us");
        const std::int64_t period = cgroup.readNumber("cpu", "cpu.cfs_period_us");
        const std::int64_t memory = cgroup.readNumber("memory", "memory.limit_in_bytes");
        return Limits{
            .cpuMillis = quota < 0 ? noLimit
                                   : static_cast<std::uint64_t>(quota * 1000 / period),
            .memoryMax = memory >= unlimitedMemory ? noLimit
                                                   : static_cast<std::uint64_t>(memory),
        };
    }
    catch (const std::exception&)
    {
        return std::nullopt;
    }
}

} // namespace resized::integration::events
