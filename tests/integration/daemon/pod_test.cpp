// The status key Pod: the Podman pod a container belongs to, "" when none
// (docs/dbus-api.md), for containers resized manages and for those it does
// not.

#include "daemon_test.h"

#include "support/scoped_pod.h"

#include <gtest/gtest.h>

namespace resized::integration
{
namespace
{

using PodStatusTest = DaemonTest;

TEST_F(PodStatusTest, StatusNamesThePodOfAContainer)
{
    const ScopedPod pod(podman(), containerName("pod"), ScopedPod::Infra::with);
    const auto member = runContainer("member", {"--pod", pod.name()});
    const auto alone = runContainer("alone");

    EXPECT_EQ(entryOf<std::string>(client().getResourceStatus(member.name()), "Pod"),
              pod.name());
    EXPECT_EQ(entryOf<std::string>(client().getResourceStatus(alone.name()), "Pod"), "");

    const Dictionary answer =
        client().updateResources(member.name(), ResourceValues{.cpuMillis = 300});
    EXPECT_EQ(entryOf<std::string>(answer, "Pod"), pod.name());
    EXPECT_EQ(entryOf<std::string>(client().getResourceStatus(member.name()), "Pod"),
              pod.name());
    EXPECT_EQ(CgroupLimits::read(member.cgroupPath()).cpuMillis(), 300U);
}

} // namespace
} // namespace resized::integration
