#include <thread>

#include "phases.h"
#include "process_usage.h"

// 6. What the daemon consumes when nothing happens: no calls, no container
// events, and no periodic sync due (the testbed configures it hourly; a
// pass costs what measureScale() reports).
namespace resized::bench {

namespace {

constexpr Amount<std::chrono::milliseconds> kSettleTime{std::chrono::seconds(1), std::chrono::milliseconds(100)};
constexpr Amount<std::chrono::milliseconds> kIdleTime{std::chrono::seconds(10), std::chrono::seconds(1)};

}  // namespace

IdleResult measureIdle(Testbed& testbed, std::size_t workloads)
{
    std::this_thread::sleep_for(kSettleTime());
    const pid_t daemon = testbed.daemonPid();
    const ProcessUsage before = usageOf(daemon);
    const auto started = std::chrono::steady_clock::now();
    std::this_thread::sleep_for(kIdleTime());
    const ProcessUsage after = usageOf(daemon);
    return {
        .workloads = workloads,
        .seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count(),
        .cpuTime = after.cpuTime - before.cpuTime,
        .contextSwitches = after.contextSwitches - before.contextSwitches,
    };
}

}  // namespace resized::bench
