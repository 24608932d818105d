#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>

#include "core/cpuset.h"

namespace resized::core {

// UINT64_MAX means "no limit" for every numeric key of the D-Bus contract.
inline constexpr uint64_t kUnlimited = std::numeric_limits<uint64_t>::max();

inline constexpr uint64_t kMinCpuMillis = 1;
inline constexpr uint64_t kMaxCpuMillis = 10'000'000;
inline constexpr uint64_t kMinMemory = 4ull << 20;
inline constexpr uint64_t kMaxMemory = 1ull << 60;
inline constexpr uint64_t kMinCpuWeight = 1;
inline constexpr uint64_t kMaxCpuWeight = 10'000;
// No machine resized runs on has more CPUs than this.
inline constexpr uint64_t kMaxExclusiveCpus = 8192;

// A set of limits. Every member is optional: a request names only what it
// changes, and a reading names only what the driver could read. Each member
// is one key of the contract and has its row in kResourceKeys
// (core/resource_keys.h), through which everything goes over all of them.
struct Resources {
    std::optional<uint64_t> cpuMillis{};
    std::optional<uint64_t> memoryMax{};
    std::optional<uint64_t> memoryHigh{};
    std::optional<uint64_t> cpuWeight{};
    // The CPUs a workload may run on; empty means all CPUs.
    std::optional<CpuSet> allowedCpus{};
    // Whole CPUs held alone (the CPU manager's static policy); 0 = none. Not
    // a cgroup file: the slice it stands for is `allowedCpus`.
    std::optional<uint64_t> exclusiveCpus{};
    // The NUMA nodes whose memory the workload may use (cpuset.mems);
    // empty means all. Only the CPU manager sets it, to pin a slice's
    // memory: it is not a key of the D-Bus contract.
    std::optional<CpuSet> memoryNodes{};

    bool empty() const;
    // This set with every key that `change` names replaced by its value.
    Resources overlaidWith(const Resources& change) const;
    // Only the keys that `mask` names, taken from this set.
    Resources restrictedTo(const Resources& mask) const;
    // This set without the keys that `mask` names.
    Resources without(const Resources& mask) const;

    bool operator==(const Resources&) const = default;
};

// A short human form such as "cpu=1500m memory.max=512Mi", for logs and
// error messages.
std::string describe(const Resources& resources);

}  // namespace resized::core
