// What the autoscaler's integration tests share: a daemon of their own
// (DaemonTest) and ways to read what the autoscaler did.

#pragma once

#include "daemon_test.h"

#include "support/wait.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace resized::integration
{

using RatePolicies = std::vector<sdbus::Struct<std::string, std::uint64_t, std::uint64_t>>;

constexpr std::uint64_t usec(std::chrono::microseconds duration)
{
    return static_cast<std::uint64_t>(duration.count());
}

// Now, as the history's TimeUSec counts.
inline std::uint64_t realtimeUsec()
{
    return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::microseconds>(
                                          std::chrono::system_clock::now().time_since_epoch())
                                          .count());
}

// One change the autoscaler made, as the history tells it.
struct ScaleStep
{
    std::uint64_t atUsec = 0;
    ResourceValues request;
};

// Loops a CPU, as a workload under load does.
inline const std::vector<std::string> busyLoop{"sh", "-c", "trap 'exit 0' TERM; while :; do :; done"};

class AutoscaleTest : public DaemonTest
{
  protected:
    // The autoscaler's changes to `workload` that were made, oldest first.
    std::vector<ScaleStep> scaleSteps(const std::string& workload)
    {
        std::vector<ScaleStep> steps;
        for (const auto& entry : client().getHistory(workload, 0))
        {
            if (entryOf<std::string>(entry, "Actor") != "autoscale" ||
                entryOf<std::string>(entry, "Result") != "success")
                continue;
            steps.push_back({entryOf<std::uint64_t>(entry, "TimeUSec"),
                             ResourceValues::fromDictionary(entryOf<Dictionary>(entry, "Request"))});
        }
        std::reverse(steps.begin(), steps.end());
        return steps;
    }

    ResourceValues actual(const std::string& workload)
    {
        return ResourceValues::fromDictionary(
            entryOf<Dictionary>(client().getResourceStatus(workload), "Actual"));
    }

    Dictionary autoscaleStatus(const std::string& workload)
    {
        return entryOf<Dictionary>(client().getResourceStatus(workload), "AutoscaleStatus");
    }

    // The D-Bus error `call` ends with, "none" when it succeeds.
    static std::string errorName(const std::function<void()>& call)
    {
        const auto error = errorOf(call);
        return error ? error->getName() : std::string("none");
    }

    bool cpuLimitReaches(const std::string& workload, std::uint64_t millis, std::chrono::seconds timeout)
    {
        return waitUntil([&] { return actual(workload).cpuMillis == millis; }, timeout);
    }
};

}  // namespace resized::integration
