#include "core/validation.h"

#include "core/cpuset.h"
#include "core/resource_keys.h"

namespace resized::core {
namespace {

std::optional<std::string> check(const NumberKey& key, const std::optional<uint64_t>& value)
{
    if (!value || (key.unlimitedAllowed && *value == kUnlimited))
        return std::nullopt;
    if (*value >= key.min && *value <= key.max)
        return std::nullopt;
    return std::string(key.name) + " " + std::to_string(*value) + " is outside " + std::to_string(key.min) +
           ".." + std::to_string(key.max) + (key.unlimitedAllowed ? " (or UINT64_MAX for no limit)" : "");
}

// Any set of CPUs is valid here: a malformed list never became one.
std::optional<std::string> check(const CpuListKey&, const std::optional<CpuSet>&) { return std::nullopt; }

}  // namespace

std::optional<std::string> outOfRange(const Resources& resources)
{
    std::optional<std::string> error;
    forEachResourceKey([&](const auto& key) {
        if (!error)
            error = check(key, key.of(resources));
    });
    return error;
}

std::optional<std::string> conflictingKeys(const Resources& resources)
{
    if (!resources.exclusiveCpus || (!resources.cpuMillis && !resources.allowedCpus))
        return std::nullopt;
    return std::string("ExclusiveCpus cannot be asked together with ") +
           (resources.cpuMillis ? "CpuMillis" : "AllowedCpus") +
           ": an exclusive slice is its own CPUs (AllowedCpus) without a quota (CpuMillis)";
}

std::optional<std::string> invalidPoolName(const std::string& name)
{
    constexpr size_t kMaxLength = 63;
    const auto isAlphanumeric = [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    };
    if (name.empty() || name.size() > kMaxLength)
        return "a pool's name has 1 to " + std::to_string(kMaxLength) + " characters, \"" + name + "\" has " +
               std::to_string(name.size());
    if (!isAlphanumeric(name.front()))
        return "a pool's name begins with a letter or a digit: \"" + name + "\"";
    for (const char c : name)
        if (!isAlphanumeric(c) && c != '_' && c != '.' && c != '-')
            return "a pool's name has only letters, digits, '_', '.' and '-': \"" + name + "\"";
    return std::nullopt;
}

}  // namespace resized::core
