#pragma once

#include <sdbus-c++/sdbus-c++.h>

#include <cstdint>
#include <map>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>

namespace resized::integration
{

// An a{sv} as the D-Bus contract passes it (resources, options, status).
using Dictionary = std::map<std::string, sdbus::Variant>;

inline constexpr std::uint64_t noLimit = UINT64_MAX;
inline constexpr std::uint64_t mebibyte = std::uint64_t{1} << 20;

// A resource dictionary of the contract as plain values, so that tests can
// build requests and compare Desired/Actual answers with ==.
struct ResourceValues
{
    std::optional<std::uint64_t> cpuMillis = std::nullopt;
    std::optional<std::uint64_t> memoryMax = std::nullopt;
    std::optional<std::uint64_t> memoryHigh = std::nullopt;
    std::optional<std::uint64_t> cpuWeight = std::nullopt;
    std::optional<std::string> allowedCpus = std::nullopt;
    std::optional<std::uint64_t> exclusiveCpus = std::nullopt;

    // Throws std::runtime_error on a key or type the contract does not have.
    static ResourceValues fromDictionary(const Dictionary& dictionary);
    Dictionary toDictionary() const;

    bool operator==(const ResourceValues&) const = default;
};

std::ostream& operator<<(std::ostream& stream, const ResourceValues& values);

// The value of key in dictionary; throws std::runtime_error naming the key
// when it is missing or of another type.
template <typename T>
T entryOf(const Dictionary& dictionary, const std::string& key)
{
    const auto found = dictionary.find(key);
    if (found == dictionary.end())
    {
        throw std::runtime_error("the dictionary has no " + key);
    }
    if (!found->second.containsValueOfType<T>())
    {
        throw std::runtime_error(key + " is of type " + found->second.peekValueType() +
                                 ", not " + sdbus::signature_of<T>::str());
    }
    return found->second.get<T>();
}

// Desired and Actual of a status dictionary.
ResourceValues desiredOf(const Dictionary& status);
ResourceValues actualOf(const Dictionary& status);

} // namespace resized::integration
