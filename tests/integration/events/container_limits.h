#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <ostream>

namespace resized::integration::events
{

inline constexpr std::uint64_t noLimit = UINT64_MAX;
inline constexpr std::uint64_t mebibyte = std::uint64_t{1} << 20;

// The two limits these tests follow across container restarts, in the units
// of the D-Bus contract.
struct Limits
{
    std::uint64_t cpuMillis = noLimit;
    std::uint64_t memoryMax = noLimit;

    bool operator==(const Limits&) const = default;
};

std::ostream& operator<<(std::ostream& stream, const Limits& limits);

// What the container's cgroup files (v1 or v2) hold; nullopt while they cannot be
// read (the cgroup of a restarting container comes and goes). cgroupPath is
// what `podman inspect` reports as State.CgroupPath.
std::optional<Limits> readLimits(const std::filesystem::path& cgroupPath);

} // namespace resized::integration::events
