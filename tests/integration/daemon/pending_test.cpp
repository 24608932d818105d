// An update of a container that is not running is recorded as pending and
// applied, through admission, when the container starts (docs/dbus-api.md).

#include "daemon_test.h"
#include "signal_recorder.h"

#include "support/wait.h"

#include <gtest/gtest.h>

namespace resized::integration
{
namespace
{

constexpr auto bound = std::chrono::seconds(30);

using PendingTest = DaemonTest;

TEST_F(PendingTest, UpdateOfAStoppedContainerIsAppliedWhenItStarts)
{
    const auto container = runContainer("c");
    ASSERT_TRUE(podman().run({"stop", "--time", "0", container.name()}).succeeded());
    const ResourceValues asked{.cpuMillis = 400, .memoryMax = 192 * mebibyte};

    const Dictionary answer = client().updateResources(container.name(), asked);

    EXPECT_EQ(entryOf<std::string>(answer, "SyncState"), "pending");
    EXPECT_EQ(entryOf<std::string>(answer, "UpdateState"), "pending");
    EXPECT_EQ(desiredOf(answer), asked);
    EXPECT_EQ(entryOf<std::uint64_t>(answer, "Generation"), 1U);

    const SignalRecorder signals;
    ASSERT_TRUE(podman().run({"start", container.name()}).succeeded());

    EXPECT_TRUE(signals.waitFor("ResourcesApplied", container.name()));
    const auto applied = [&] {
        return entryOf<std::string>(client().getResourceStatus(container.name()), "SyncState") ==
               "synchronized";
    };
    ASSERT_TRUE(waitUntil(applied, bound))
        << entryOf<std::string>(client().getResourceStatus(container.name()), "SyncState");
    const CgroupLimits limits = CgroupLimits::read(container.cgroupPath());
    EXPECT_EQ(limits.cpuMillis(), 400U);
    EXPECT_EQ(limits.memoryLimit, 192 * mebibyte);
    const Dictionary status = client().getResourceStatus(container.name());
    EXPECT_EQ(desiredOf(status), asked);
    EXPECT_EQ(actualOf(status).cpuMillis, 400U);
    EXPECT_EQ(actualOf(status).memoryMax, 192 * mebibyte);
    EXPECT_EQ(entryOf<std::string>(status, "UpdateState"), "success");
    EXPECT_EQ(entryOf<std::uint64_t>(status, "ObservedGeneration"),
              entryOf<std::uint64_t>(status, "Generation"));
    EXPECT_EQ(client().managerNumber("CpuAllocatedMillis"), 400U);
    EXPECT_EQ(client().managerNumber("MemoryAllocated"), 192 * mebibyte);
    EXPECT_EQ(client().managerNumber("CpuReservedMillis"), 0U);
}

} // namespace
} // namespace resized::integration
