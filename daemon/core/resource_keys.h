#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>

#include "core/resources.h"

namespace resized::core {

// The keys of the contract's resource dictionaries (design.md §1), one per
// member of Resources. Everything that goes over every key — the D-Bus and
// database codecs, validation, drift, describe() — iterates kResourceKeys
// below instead of naming them, so that a new key is added in one place and
// the compiler points at every module that must learn its type.
enum class ResourceKey { CpuMillis, MemoryMax, MemoryHigh, CpuWeight, AllowedCpus, ExclusiveCpus, MemoryNodes };

// Kernel and systemd round what is written: systemd keeps CPU quota in
// 10 ms-per-second steps, the kernel rounds memory limits down to a page,
// and cgroup v1 shares map to weights with a rounding step of 1.
inline constexpr uint64_t kCpuMillisTolerance = 10;
inline constexpr uint64_t kMemoryTolerance = 64 * 1024;
inline constexpr uint64_t kCpuWeightTolerance = 1;

// How describe() shows a number of the key.
enum class Unit { Millicores, Bytes, Plain };

// Where a key's value lives: in a cgroup file that the backends write and
// read back (and drift is measured on), or only in resized's own state,
// standing for other keys that are in the cgroup (ExclusiveCpus: the slice
// in AllowedCpus, no quota in CpuMillis).
enum class Home { Cgroup, Ledger };

// Whether callers name a key (in the D-Bus contract's dictionaries), or only
// resized itself sets it.
enum class Audience { Callers, Internal };

// A key whose value is a number (D-Bus type "t").
struct NumberKey {
    using Value = uint64_t;
    // On D-Bus and in the state database.
    using Wire = uint64_t;

    ResourceKey key;
    // In D-Bus dictionaries, the state database and error messages.
    std::string_view name;
    // In describe(): "memory.max=512Mi".
    std::string_view label;
    std::optional<Value> Resources::*member;
    uint64_t min;
    uint64_t max;
    // Whether kUnlimited is also valid, meaning "no limit".
    bool unlimitedAllowed;
    // How far a value read back may be from the one written and still match.
    uint64_t driftTolerance;
    Unit unit;
    Home home = Home::Cgroup;
    Audience audience = Audience::Callers;

    constexpr std::optional<Value>& of(Resources& resources) const { return resources.*member; }
    constexpr const std::optional<Value>& of(const Resources& resources) const { return resources.*member; }
    static Value fromWire(Wire wire) { return wire; }
    static Wire toWire(Value value) { return value; }
};

// A key whose value is a set of CPUs (or of NUMA nodes, which share the
// syntax), a cpuset list on D-Bus (type "s", "0-3,6") and in the state
// database, parsed once where it comes in; the empty set means all.
struct CpuListKey {
    using Value = CpuSet;
    using Wire = std::string;

    ResourceKey key;
    std::string_view name;
    std::string_view label;
    std::optional<Value> Resources::*member;
    Home home = Home::Cgroup;
    Audience audience = Audience::Callers;

    constexpr std::optional<Value>& of(Resources& resources) const { return resources.*member; }
    constexpr const std::optional<Value>& of(const Resources& resources) const { return resources.*member; }
    // Throws std::invalid_argument, naming the key, for a malformed list.
    Value fromWire(const Wire& list) const;
    static Wire toWire(const Value& cpus) { return formatCpuSet(cpus); }
};

// The type of a key's value: ValueOf<decltype(key)> in a generic visitor.
template <typename Key>
using ValueOf = typename std::remove_cvref_t<Key>::Value;
// The type of its value on D-Bus and in the state database.
template <typename Key>
using WireOf = typename std::remove_cvref_t<Key>::Wire;

// Every key, in the contract's order (the order of messages and of
// driftedKeys()).
inline constexpr std::tuple kResourceKeys{
    NumberKey{ResourceKey::CpuMillis, "CpuMillis", "cpu", &Resources::cpuMillis, kMinCpuMillis,
              kMaxCpuMillis, true, kCpuMillisTolerance, Unit::Millicores},
    NumberKey{ResourceKey::MemoryMax, "MemoryMax", "memory.max", &Resources::memoryMax, kMinMemory,
              kMaxMemory, true, kMemoryTolerance, Unit::Bytes},
    NumberKey{ResourceKey::MemoryHigh, "MemoryHigh", "memory.high", &Resources::memoryHigh, kMinMemory,
              kMaxMemory, true, kMemoryTolerance, Unit::Bytes},
    NumberKey{ResourceKey::CpuWeight, "CpuWeight", "cpu.weight", &Resources::cpuWeight, kMinCpuWeight,
              kMaxCpuWeight, false, kCpuWeightTolerance, Unit::Plain},
    CpuListKey{ResourceKey::AllowedCpus, "AllowedCpus", "cpus", &Resources::allowedCpus},
    NumberKey{ResourceKey::ExclusiveCpus, "ExclusiveCpus", "exclusive-cpus", &Resources::exclusiveCpus, 0,
              kMaxExclusiveCpus, false, 0, Unit::Plain, Home::Ledger},
    CpuListKey{ResourceKey::MemoryNodes, "AllowedMemoryNodes", "mems", &Resources::memoryNodes, Home::Cgroup,
               Audience::Internal},
};

// Calls visit(descriptor) for every key, in the contract's order; `visit`
// takes `const auto&` or has an overload per kind of key.
template <typename Visit>
constexpr void forEachResourceKey(Visit&& visit)
{
    std::apply([&visit](const auto&... key) { (visit(key), ...); }, kResourceKeys);
}

// Calls visit(descriptor) for `key` alone.
template <typename Visit>
constexpr void visitResourceKey(ResourceKey key, Visit&& visit)
{
    forEachResourceKey([&](const auto& descriptor) {
        if (descriptor.key == key)
            visit(descriptor);
    });
}

inline constexpr auto kAllResourceKeys =
    std::apply([](const auto&... key) { return std::array{key.key...}; }, kResourceKeys);

// The keys that are cgroup files, in the contract's order.
inline constexpr auto kCgroupResourceKeys = [] {
    constexpr size_t count =
        std::apply([](const auto&... key) { return ((key.home == Home::Cgroup ? 1u : 0u) + ...); }, kResourceKeys);
    std::array<ResourceKey, count> keys{};
    size_t next = 0;
    forEachResourceKey([&](const auto& key) {
        if (key.home == Home::Cgroup)
            keys[next++] = key.key;
    });
    return keys;
}();

// The D-Bus name of `key` ("CpuMillis", …).
std::string_view nameOf(ResourceKey key);

// The D-Bus names of every key callers name, comma-separated, for messages.
std::string allResourceKeyNames();

bool names(const Resources& resources, ResourceKey key);

// `resources` reduced to `key` (empty when it does not name it).
Resources only(const Resources& resources, ResourceKey key);

}  // namespace resized::core
