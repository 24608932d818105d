#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <ostream>
#include <string>

namespace resized::integration
{

// What a container's cgroup files hold: the truth the daemon's answers are
// checked against. The fields are v1's; on cgroup v2 (the VM guest) they are
// read from cpu.max, memory.max and cpuset.cpus.effective, and the soft limit
// and the shares, which v2 has not, stay 0.
struct CgroupLimits
{
    std::int64_t cpuQuotaUs = 0; // -1: no limit
    std::int64_t cpuPeriodUs = 0;
    std::uint64_t memoryLimit = 0;
    std::uint64_t memorySoftLimit = 0;
    std::uint64_t cpuShares = 0;
    std::string cpus;

    // cgroupPath as `podman inspect` reports it (/libpod_parent/libpod-<id>).
    static CgroupLimits read(const std::filesystem::path& cgroupPath);

    // The CPU limit in millicores; nullopt when there is none.
    std::optional<std::uint64_t> cpuMillis() const;

    bool operator==(const CgroupLimits&) const = default;
};

std::ostream& operator<<(std::ostream& stream, const CgroupLimits& limits);

// What memory.limit_in_bytes and memory.soft_limit_in_bytes read when there
// is no limit: the largest page-aligned counter.
std::uint64_t unlimitedMemoryReading();

} // namespace resized::integration
