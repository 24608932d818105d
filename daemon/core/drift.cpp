#include "core/drift.h"

#include <optional>

#include "core/cpuset.h"

namespace resized::core {

namespace {

// "No limit" is not a very large number: it only matches itself, so a
// limit that appeared or vanished is always drift.
bool withinTolerance(uint64_t expected, uint64_t actual, uint64_t tolerance)
{
    if (expected == kUnlimited || actual == kUnlimited)
        return expected == actual;
    const uint64_t difference = expected > actual ? expected - actual : actual - expected;
    return difference <= tolerance;
}

// Compared as sets, so "0,1" matches "0-1". The empty list ("all CPUs")
// matches only itself: backends already read a cpuset equal to the parent's
// as empty.
bool sameCpus(const std::string& expected, const std::string& actual)
{
    const auto expectedCpus = parseCpuSet(expected);
    const auto actualCpus = parseCpuSet(actual);
    if (!expectedCpus || !actualCpus)
        return expected == actual;
    return *expectedCpus == *actualCpus;
}

}  // namespace

std::vector<std::string> driftedKeys(const Resources& expected, const Resources& actual)
{
    std::vector<std::string> drifted;
    auto checkNumber = [&](const char* key, const std::optional<uint64_t>& want,
                           const std::optional<uint64_t>& have, uint64_t tolerance) {
        if (want && (!have || !withinTolerance(*want, *have, tolerance)))
            drifted.emplace_back(key);
    };
    checkNumber("CpuMillis", expected.cpuMillis, actual.cpuMillis, kCpuMillisTolerance);
    checkNumber("MemoryMax", expected.memoryMax, actual.memoryMax, kMemoryTolerance);
    checkNumber("MemoryHigh", expected.memoryHigh, actual.memoryHigh, kMemoryTolerance);
    checkNumber("CpuWeight", expected.cpuWeight, actual.cpuWeight, kCpuWeightTolerance);
    if (expected.allowedCpus
        && (!actual.allowedCpus || !sameCpus(*expected.allowedCpus, *actual.allowedCpus)))
        drifted.emplace_back("AllowedCpus");
    return drifted;
}

}  // namespace resized::core
