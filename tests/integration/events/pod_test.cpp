// Restarting a pod restarts each of its containers; every managed one gets
// its desired limits back.

#include "events_test.h"
#include "scoped_pod.h"

#include <gtest/gtest.h>

namespace resized::integration::events
{
namespace
{

using PodTest = EventsTest;

TEST_F(PodTest, PodRestartReappliesEveryContainer)
{
    startDaemon();
    const ScopedPod pod(podman(), nameFor("pod"));
    const ScopedContainer first(podman(), nameFor("first"), {"--pod", pod.name()});
    const ScopedContainer second(podman(), nameFor("second"), {"--pod", pod.name()});
    bus().updateResources(first.name(), desired);
    bus().updateResources(second.name(), desired);

    podmanOrThrow({"pod", "restart", pod.name()});
    const auto restarted = std::chrono::steady_clock::now();

    EXPECT_TRUE(waitForLimits(first.cgroupPath(), desired));
    EXPECT_TRUE(waitForLimits(second.cgroupPath(), desired));
    reportDuration("pod-restart-to-limits", restarted);
    expectDesiredLimitsOn(first);
    expectDesiredLimitsOn(second);
}

} // namespace
} // namespace resized::integration::events
