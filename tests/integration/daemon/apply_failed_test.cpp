// The kernel refuses a write: the caller gets io.resized1.Error.ApplyFailed
// as the answer of its call, and every key the update had written already is
// restored (docs/dbus-api.md). The refusal is a real one: the container lives
// under a cgroup parent of the test's own whose CPU quota is smaller than the
// one asked, which cgroup v1 refuses (EINVAL).

#include "daemon_test.h"
#include "signal_recorder.h"

#include "support/cgroup_parent.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace resized::integration
{
namespace
{

using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;

constexpr auto applyFailed = "io.resized1.Error.ApplyFailed";
// 600m: the parent's quota, of a 100 ms period.
constexpr auto parentQuota = "60000";

using ApplyFailedTest = DaemonTest;

TEST_F(ApplyFailedTest, KernelRefusalIsTheAnswerAndRestoresEveryKey)
{
    const ScopedCgroupParent parent("apply-failed");
    const auto container = runContainer("c", {"--cgroup-parent=" + parent.path()});
    const ResourceValues managed{.cpuMillis = 300};
    client().updateResources(container.name(), managed);
    parent.write("cpu", "cpu.cfs_quota_us", parentQuota);
    const CgroupLimits before = CgroupLimits::read(container.cgroupPath());
    ASSERT_EQ(before.cpuMillis(), 300U);
    const SignalRecorder signals;

    // The memory limit is a decrease, written before the CPU increase that
    // the kernel refuses: it must be taken back.
    const auto error = errorOf([&] {
        client().updateResources(container.name(),
                                 ResourceValues{.cpuMillis = 900, .memoryMax = 256 * mebibyte});
    });

    ASSERT_TRUE(error) << "the kernel accepted a quota above its parent's";
    EXPECT_EQ(error->getName(), applyFailed) << error->getMessage();
    EXPECT_THAT(error->getMessage(), HasSubstr("cpu"));
    EXPECT_EQ(CgroupLimits::read(container.cgroupPath()), before);
    const Dictionary status = client().getResourceStatus(container.name());
    EXPECT_EQ(desiredOf(status), managed);
    EXPECT_EQ(actualOf(status).cpuMillis, 300U);
    EXPECT_EQ(actualOf(status).memoryMax, noLimit);
    EXPECT_EQ(entryOf<std::string>(status, "UpdateState"), "failed");
    EXPECT_EQ(entryOf<std::string>(status, "SyncState"), "synchronized");
    EXPECT_THAT(entryOf<std::string>(status, "Message"), Not(IsEmpty()));
    EXPECT_EQ(entryOf<std::uint64_t>(status, "ObservedGeneration"),
              entryOf<std::uint64_t>(status, "Generation"));
    EXPECT_EQ(client().managerNumber("CpuAllocatedMillis"), 300U);
    EXPECT_EQ(client().managerNumber("CpuReservedMillis"), 0U);
    EXPECT_EQ(client().managerNumber("MemoryReserved"), 0U);
    EXPECT_TRUE(signals.waitFor("UpdateFailed", container.name(), applyFailed));
}

TEST_F(ApplyFailedTest, WorkloadUpdateAnswersTheRefusalToo)
{
    const ScopedCgroupParent parent("apply-failed");
    const auto container = runContainer("c", {"--cgroup-parent=" + parent.path()});
    client().updateResources(container.name(), ResourceValues{.cpuMillis = 300});
    parent.write("cpu", "cpu.cfs_quota_us", parentQuota);

    const auto error = errorOf([&] {
        client().updateWorkload(sdbus::ObjectPath(workloadPathOf(container.name())),
                                ResourceValues{.cpuMillis = 900});
    });

    ASSERT_TRUE(error) << "the kernel accepted a quota above its parent's";
    EXPECT_EQ(error->getName(), applyFailed) << error->getMessage();
    EXPECT_EQ(CgroupLimits::read(container.cgroupPath()).cpuMillis(), 300U);
}

} // namespace
} // namespace resized::integration
