#pragma once

#include <chrono>
#include <cstddef>
#include <vector>

namespace resized::bench {

using Duration = std::chrono::nanoseconds;

// Nearest-rank percentiles of a set of samples, in milliseconds.
struct LatencySummary {
    std::size_t count = 0;
    double p50Ms = 0;
    double p99Ms = 0;
    double meanMs = 0;
    double maxMs = 0;
};

// Samples may be negative (an event observed before its reference point).
LatencySummary summarize(std::vector<Duration> samples);

double toMilliseconds(Duration duration);

}  // namespace resized::bench
