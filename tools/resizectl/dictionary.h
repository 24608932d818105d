#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>
#include <sdbus-c++/Types.h>

#include "core/resources.h"
#include "dbus_codec/resource_dictionary.h"

namespace resized::ctl {

using dbus_codec::Dictionary;

struct UpdateOptions {
    bool dryRun = false;
    bool force = false;
    bool defer = false;
    std::optional<std::chrono::microseconds> reclaimTimeout;
    // The pool to join, durably; "" leaves any pool.
    std::optional<std::string> pool;
};

// What `pool set` changes: the caps given (kUnlimited: none), and the
// budgets given, which replace all of the pool's ([] clears them).
struct PoolChanges {
    std::optional<uint64_t> cpuMillis{};
    std::optional<uint64_t> memoryMax{};
    std::optional<std::vector<Dictionary>> budgets{};
};

// Only the keys a request names are sent: a missing key leaves that resource
// (or option, or cap) as the daemon has it.
Dictionary toDictionary(const core::Resources& resources);
Dictionary toDictionary(const UpdateOptions& options);
Dictionary toDictionary(const PoolChanges& changes);

// An object as a List method names it (ListPools, ListPlans), with the
// properties of its interface.
struct BusObject {
    std::string objectPath;
    Dictionary properties;
};

// The resources a status dictionary (Desired, Actual, a signal's payload)
// carries; keys this client does not know, or of an unexpected type, are
// left out rather than failing the whole answer.
core::Resources resourcesFromDictionary(const Dictionary& dictionary);

// Machine output: D-Bus values as JSON, numbers kept exact (UINT64_MAX
// stays 18446744073709551615, meaning "no limit" as on the bus).
nlohmann::json toJson(const sdbus::Variant& value);
nlohmann::json toJson(const Dictionary& dictionary);
// The properties with their D-Bus key names, plus ObjectPath.
nlohmann::json toJson(const BusObject& object);

// The value of `key` if the dictionary holds it with type T.
template <typename T>
std::optional<T> find(const Dictionary& dictionary, const std::string& key)
{
    const auto it = dictionary.find(key);
    if (it == dictionary.end() || !it->second.containsValueOfType<T>())
        return std::nullopt;
    return it->second.get<T>();
}

// The value of `key`, or `fallback` when it is missing or of another type.
template <typename T>
T lookup(const Dictionary& dictionary, const std::string& key, T fallback = T{})
{
    return find<T>(dictionary, key).value_or(std::move(fallback));
}

}  // namespace resized::ctl
