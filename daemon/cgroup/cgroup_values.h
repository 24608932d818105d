#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "core/cpuset.h"

// Conversions between cgroup file contents and the values of core::Resources
// that cgroup v1 and v2 share.
namespace resized::cgroup {

// A file holding one unsigned decimal number ("123\n"); throws CgroupError
// naming `source` otherwise.
uint64_t parseUnsigned(std::string_view text, const std::filesystem::path& source);

// "max" (v2's "no limit") as kUnlimited, otherwise parseUnsigned.
uint64_t parseLimit(std::string_view text, const std::filesystem::path& source);
std::string formatLimit(uint64_t value);

// The value of `key` in a file of "key value" lines (cpu.stat, memory.stat,
// memory.events); nullopt when no line has that key.
std::optional<uint64_t> keyedValue(std::string_view text, std::string_view key,
                                   const std::filesystem::path& source);

// The stall time in µs of one line of a pressure file (cpu.pressure,
// memory.pressure: "some avg10=0.00 avg60=0.00 avg300=0.00 total=123"),
// `kind` being "some" or "full"; nullopt when the file has no such line.
std::optional<uint64_t> pressureTotal(std::string_view text, std::string_view kind,
                                      const std::filesystem::path& source);

core::CpuSet parseCpus(std::string_view text, const std::filesystem::path& source);

// What a cgroup's cpuset file means for AllowedCpus: the empty set when it
// is empty (v2: inherit) or names exactly the CPUs the parent offers,
// otherwise the CPUs it names.
core::CpuSet allowedCpus(std::string_view text, const core::CpuSet& parentCpus,
                        const std::filesystem::path& source);

// CFS bandwidth, as both v1 and v2 express a CPU limit.
struct CpuBandwidth {
    uint64_t quotaUs;
    uint64_t periodUs;
};

inline constexpr uint64_t kDefaultCpuPeriodUs = 100'000;

CpuBandwidth bandwidthForMillis(uint64_t millis);
// Rounded to the nearest millicore.
uint64_t millisForBandwidth(const CpuBandwidth& bandwidth, const std::filesystem::path& source);

}  // namespace resized::cgroup
