// Desired state is keyed by name: a container removed and created again under
// the same name, with create-time limits of its own, gets the desired limits
// as soon as it starts.

#include "events_test.h"

#include <gtest/gtest.h>

namespace resized::integration::events
{
namespace
{

// Smaller than the desired limits, so that the re-application shows.
const std::vector<std::string> createTimeLimits{"--cpus", "0.5", "--memory", "200m"};

using RecreateTest = EventsTest;

TEST_F(RecreateTest, RemovedAndRunAgainGetsTheDesiredLimits)
{
    startDaemon();
    const auto first = runContainer("c");
    bus().updateResources(first.name(), desired);

    ASSERT_TRUE(podman().remove(first.name()));
    const ScopedContainer second(podman(), first.name(), createTimeLimits);
    const auto created = std::chrono::steady_clock::now();

    ASSERT_NE(containerIdOf(second.name()), first.id());
    EXPECT_TRUE(waitForLimits(second.cgroupPath(), desired));
    reportDuration("run-to-limits", created);
    expectDesiredLimitsOn(second);
}

TEST_F(RecreateTest, RunWithReplaceGetsTheDesiredLimits)
{
    startDaemon();
    const auto first = runContainer("c");
    bus().updateResources(first.name(), desired);

    auto arguments = createTimeLimits;
    arguments.push_back("--replace");
    const ScopedContainer second(podman(), first.name(), arguments);
    const auto created = std::chrono::steady_clock::now();

    ASSERT_NE(containerIdOf(second.name()), first.id());
    EXPECT_TRUE(waitForLimits(second.cgroupPath(), desired));
    reportDuration("replace-to-limits", created);
    expectDesiredLimitsOn(second);
}

} // namespace
} // namespace resized::integration::events
