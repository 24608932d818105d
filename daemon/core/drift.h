#pragma once

#include <string>
#include <vector>

#include "core/resources.h"

namespace resized::core {

// Kernel and systemd round what is written: systemd keeps CPU quota in
// 10 ms-per-second steps, the kernel rounds memory limits down to a page,
// and cgroup v1 shares map to weights with a rounding step of 1.
inline constexpr uint64_t kCpuMillisTolerance = 10;
inline constexpr uint64_t kMemoryTolerance = 64 * 1024;
inline constexpr uint64_t kCpuWeightTolerance = 1;

// The names (D-Bus keys) of the resources that `expected` names and that
// `actual` lacks or holds at a value outside the rounding tolerance.
std::vector<std::string> driftedKeys(const Resources& expected, const Resources& actual);

inline bool matches(const Resources& expected, const Resources& actual)
{
    return driftedKeys(expected, actual).empty();
}

}  // namespace resized::core
