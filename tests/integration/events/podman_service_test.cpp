// Podman's API service goes away and comes back: resized says so, answers
// status from its store, refuses changes, and on reconnection catches up with
// what happened meanwhile.

#include "events_test.h"
#include "support/podman_service.h"

#include <gtest/gtest.h>

namespace resized::integration::events
{
namespace
{

// The reconnection backs off up to 30 s between attempts.
constexpr auto reconnectTimeout = std::chrono::seconds(60);

using PodmanServiceTest = EventsTest;

TEST_F(PodmanServiceTest, ReconnectionReappliesLimitsOfContainersRestartedMeanwhile)
{
    PodmanService service(environment().directory / "events-podman.sock",
                          environment().directory / "events-podman.log");
    daemonOptions().podmanSocket = service.socket();
    startDaemon();
    const auto container = runContainer("c");
    bus().updateResources(container.name(), desired);
    ASSERT_TRUE(waitForRuntimeConnected(true, reactionTimeout));

    service.kill();
    ASSERT_TRUE(waitForRuntimeConnected(false, reactionTimeout));

    const Dictionary stored = bus().resourceStatus(container.name());
    EXPECT_EQ(desiredOf(stored), desired);
    EXPECT_EQ(entryOf<std::string>(stored, "ContainerId"), container.id());
    EXPECT_EQ(errorNameOf([&] {
                  bus().updateResources(container.name(),
                                        {.cpuMillis = 700, .memoryMax = desired.memoryMax});
              }),
              "io.resized1.Error.RuntimeUnavailable");

    // The command line needs no service; nobody can tell resized about it.
    podmanOrThrow({"restart", "--time", "5", container.name()});
    const auto cgroupPath = container.cgroupPath();
    ASSERT_EQ(readLimits(cgroupPath), Limits{}) << "the restart kept the limits";

    service.start();
    const auto serviceBack = std::chrono::steady_clock::now();
    EXPECT_TRUE(waitForRuntimeConnected(true, reconnectTimeout));
    reportDuration("service-start-to-connected", serviceBack);
    EXPECT_TRUE(waitForLimits(cgroupPath, desired));
    expectDesiredLimitsOn(container);
}

} // namespace
} // namespace resized::integration::events
