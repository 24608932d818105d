#include "core/drift.h"

#include <optional>

#include "core/cpuset.h"
#include "core/resource_keys.h"

namespace resized::core {

namespace {

// "No limit" is not a very large number: it only matches itself, so a
// limit that appeared or vanished is always drift.
bool same(const NumberKey& key, uint64_t expected, uint64_t actual)
{
    if (expected == kUnlimited || actual == kUnlimited)
        return expected == actual;
    const uint64_t difference = expected > actual ? expected - actual : actual - expected;
    return difference <= key.driftTolerance;
}

// The empty set ("all CPUs") matches only itself: backends already read a
// cpuset equal to the parent's as empty.
bool same(const CpuListKey&, const CpuSet& expected, const CpuSet& actual) { return expected == actual; }

}  // namespace

std::vector<std::string> driftedKeys(const Resources& expected, const Resources& actual)
{
    std::vector<std::string> drifted;
    forEachResourceKey([&](const auto& key) {
        if (key.home != Home::Cgroup)
            return;
        const auto& want = key.of(expected);
        const auto& have = key.of(actual);
        if (want && (!have || !same(key, *want, *have)))
            drifted.emplace_back(key.name);
    });
    return drifted;
}

}  // namespace resized::core
