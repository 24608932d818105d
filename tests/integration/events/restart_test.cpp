// A managed container that Podman restarts, or stops and starts, gets its
// desired limits back from the event stream, without any Reconcile call.

#include "events_test.h"

#include <gtest/gtest.h>

namespace resized::integration::events
{
namespace
{

using RestartTest = EventsTest;

TEST_F(RestartTest, RestartReappliesTheDesiredLimits)
{
    startDaemon();
    const auto container = runContainer("c");
    bus().updateResources(container.name(), desired);
    const auto cgroupPath = container.cgroupPath();
    ASSERT_EQ(readLimits(cgroupPath), desired);

    podmanOrThrow({"restart", "--time", "5", container.name()});
    const auto restarted = std::chrono::steady_clock::now();

    EXPECT_TRUE(waitForLimits(cgroupPath, desired));
    reportDuration("restart-to-limits", restarted);
    EXPECT_EQ(containerIdOf(container.name()), container.id());
    expectDesiredLimitsOn(container);
}

// design.md §1b: an allocation is held while the workload is stopped, so
// nobody else can take it before the workload starts again.
TEST_F(RestartTest, StopKeepsTheAllocationAndStartReappliesTheLimits)
{
    startDaemon();
    const auto container = runContainer("c");
    bus().updateResources(container.name(), desired);
    const std::uint64_t allocatedWhileRunning = bus().cpuAllocatedMillis();
    ASSERT_GE(allocatedWhileRunning, desired.cpuMillis);

    podmanOrThrow({"stop", "--time", "5", container.name()});
    bus().reconcile(container.name());
    EXPECT_EQ(bus().cpuAllocatedMillis(), allocatedWhileRunning);

    podmanOrThrow({"start", container.name()});
    const auto started = std::chrono::steady_clock::now();
    EXPECT_TRUE(waitForLimits(container.cgroupPath(), desired));
    reportDuration("start-to-limits", started);
    EXPECT_EQ(bus().cpuAllocatedMillis(), allocatedWhileRunning);
    expectDesiredLimitsOn(container);
}

} // namespace
} // namespace resized::integration::events
