#include "latency_summary.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace resized::bench {

namespace {

// The smallest sample with at least `percent` of the samples at or below it.
Duration nearestRank(const std::vector<Duration>& sorted, double percent)
{
    const auto rank = static_cast<std::size_t>(std::ceil(percent / 100.0 * static_cast<double>(sorted.size())));
    return sorted[std::max<std::size_t>(rank, 1) - 1];
}

}  // namespace

double toMilliseconds(Duration duration)
{
    return std::chrono::duration<double, std::milli>(duration).count();
}

LatencySummary summarize(std::vector<Duration> samples)
{
    if (samples.empty())
        return {};
    std::sort(samples.begin(), samples.end());
    const Duration total = std::accumulate(samples.begin(), samples.end(), Duration::zero());
    return {
        .count = samples.size(),
        .p50Ms = toMilliseconds(nearestRank(samples, 50)),
        .p99Ms = toMilliseconds(nearestRank(samples, 99)),
        .meanMs = toMilliseconds(total) / static_cast<double>(samples.size()),
        .maxMs = toMilliseconds(samples.back()),
    };
}

}  // namespace resized::bench
