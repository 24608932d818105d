#include "core/validation.h"

#include "core/cpuset.h"
#include "core/quantity.h"

namespace resized::core {
namespace {

std::optional<std::string> checkRange(const std::optional<uint64_t>& value, std::string_view key,
                                      uint64_t min, uint64_t max, bool unlimitedAllowed)
{
    if (!value || (unlimitedAllowed && *value == kUnlimited))
        return std::nullopt;
    if (*value >= min && *value <= max)
        return std::nullopt;
    return std::string(key) + " " + std::to_string(*value) + " is outside " + std::to_string(min) +
           ".." + std::to_string(max) + (unlimitedAllowed ? " (or UINT64_MAX for no limit)" : "");
}

}  // namespace

std::optional<std::string> validateAndCanonicalise(Resources& resources)
{
    const std::optional<std::string> errors[] = {
        checkRange(resources.cpuMillis, "CpuMillis", kMinCpuMillis, kMaxCpuMillis, true),
        checkRange(resources.memoryMax, "MemoryMax", kMinMemory, kMaxMemory, true),
        checkRange(resources.memoryHigh, "MemoryHigh", kMinMemory, kMaxMemory, true),
        checkRange(resources.cpuWeight, "CpuWeight", kMinCpuWeight, kMaxCpuWeight, false),
    };
    for (const auto& error : errors) {
        if (error)
            return error;
    }
    if (resources.allowedCpus) {
        auto cpus = parseCpuSet(*resources.allowedCpus);
        if (!cpus)
            return "AllowedCpus \"" + *resources.allowedCpus +
                   "\" is not a CPU list such as \"0-3,6\"";
        resources.allowedCpus = formatCpuSet(*cpus);
    }
    return std::nullopt;
}

}  // namespace resized::core
