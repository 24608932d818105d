// Restarting a pod restarts each of its containers; every managed one gets
// its desired limits back.

#include "events_test.h"
#include "support/scoped_pod.h"

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

// A pod with its infra container has a cgroup of its own, the parent of its
// members': `pod:NAME` puts limits there, and they come back when the pod
// runs again.
TEST_F(PodTest, APodsOwnCgroupIsAWorkload)
{
    startDaemon();
    const ScopedPod pod(podman(), nameFor("shop"), ScopedPod::Infra::with);
    const std::string& name = pod.name();
    const ScopedContainer member(podman(), nameFor("member"), {"--pod", name});
    const auto status = bus().updateResources("pod:" + name, desired);
    EXPECT_EQ(entryOf<std::string>(status, "Kind"), "pod");
    EXPECT_EQ(readLimits(pod.cgroupPath()), desired);
    EXPECT_EQ(member.cgroupPath().parent_path(), pod.cgroupPath());

    podmanOrThrow({"pod", "stop", "--time", "0", name});
    podmanOrThrow({"pod", "start", name});
    EXPECT_TRUE(waitForLimits(pod.cgroupPath(), desired));
    EXPECT_TRUE(waitForSynchronized("pod:" + name));
}

} // namespace
} // namespace resized::integration::events
