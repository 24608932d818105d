// What changed while resized was not running is caught up when it starts:
// the start-up resynchronisation re-lists every container.

#include "events_test.h"

#include <gtest/gtest.h>

namespace resized::integration::events
{
namespace
{

using DaemonDownTest = EventsTest;

TEST_F(DaemonDownTest, ContainerStartedMeanwhileCountsInTheAllocation)
{
    startDaemon();
    const auto managed = runContainer("managed");
    bus().updateResources(managed.name(), desired);
    ASSERT_NO_FATAL_FAILURE(stopDaemon());

    const auto newcomer = runContainer("newcomer", {"--cpus", "0.5"});
    startDaemon();

    EXPECT_TRUE(waitForCpuAllocated(desired.cpuMillis + 500))
        << "CpuAllocatedMillis reads " << bus().cpuAllocatedMillis();
}

TEST_F(DaemonDownTest, ManagedContainerCreatedAgainMeanwhileGetsItsLimitsAtStart)
{
    startDaemon();
    const auto first = runContainer("c");
    bus().updateResources(first.name(), desired);
    ASSERT_NO_FATAL_FAILURE(stopDaemon());

    ASSERT_TRUE(podman().remove(first.name()));
    const ScopedContainer second(podman(), first.name(), {"--cpus", "0.3"});
    ASSERT_EQ(readLimits(second.cgroupPath()), (Limits{.cpuMillis = 300}));
    startDaemon();

    expectDesiredLimitsOn(second);
    EXPECT_TRUE(waitForCpuAllocated(desired.cpuMillis))
        << "CpuAllocatedMillis reads " << bus().cpuAllocatedMillis();
}

} // namespace
} // namespace resized::integration::events
