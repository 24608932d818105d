// Memory shrinks below what a container really holds (a tmpfs charged to its
// memory cgroup, which nothing can reclaim without swap): refused or rolled
// back, never half applied, and the container is never OOM-killed by it.
// Where a test needs the kernel's refusal, the container runs with
// memory.swappiness 0, which keeps the kernel from swapping the tmpfs out to
// meet a limit, so that the refusal holds on machines with swap too.

#include "daemon_test.h"
#include "signal_recorder.h"

#include "support/cgroup_v1.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace resized::integration
{
namespace
{

using ::testing::IsEmpty;
using ::testing::Not;

// Even with Force, cgroup v1 refuses a limit below memory it cannot
// reclaim (EBUSY); resized answers that as MemoryInUse, with every key
// restored (docs/dbus-api.md).
constexpr auto memoryInUse = "io.resized1.Error.MemoryInUse";

constexpr std::uint64_t heldMebibytes = 200;
constexpr auto withoutSwapping = "--memory-swappiness=0";
constexpr std::uint64_t shrunkMemory = 64 * mebibyte;

class MemoryTest : public DaemonTest
{
  protected:
    ScopedContainer runMemoryHolder(const std::vector<std::string>& podmanArguments = {})
    {
        return ScopedContainer::holdingMemory(podman(), containerName("holder"),
                                              heldMebibytes, podmanArguments);
    }

    static bool holdsItsMemory(const ScopedContainer& container)
    {
        return CgroupV1(container.cgroupPath())
            .waitForMemoryUsageAbove(150 * mebibyte, std::chrono::seconds(60));
    }

    void expectRunningAndNotOomKilled(const ScopedContainer& container) const
    {
        EXPECT_EQ(podman().inspect(container.name(), "{{.State.Running}} {{.State.OOMKilled}}"),
                  "true false");
    }

    static Dictionary shrinkOptions(bool force)
    {
        return {{"Force", sdbus::Variant(force)},
                {"ReclaimTimeoutUSec", sdbus::Variant(std::uint64_t{500'000})}};
    }
};

TEST_F(MemoryTest, ShrinkBelowUsageIsMemoryInUseAndChangesNothing)
{
    const auto container = runMemoryHolder();
    ASSERT_TRUE(holdsItsMemory(container));
    const CgroupLimits before = CgroupLimits::read(container.cgroupPath());
    const SignalRecorder signals;

    const auto error = errorOf([&] {
        client().updateResources(container.name(), ResourceValues{.memoryMax = shrunkMemory},
                                 shrinkOptions(false));
    });

    ASSERT_TRUE(error) << "the shrink was applied";
    EXPECT_EQ(error->getName(), memoryInUse) << error->getMessage();
    EXPECT_EQ(CgroupLimits::read(container.cgroupPath()), before);
    expectRunningAndNotOomKilled(container);
    const Dictionary status = client().getResourceStatus(container.name());
    EXPECT_EQ(entryOf<std::string>(status, "UpdateState"), "failed");
    EXPECT_EQ(entryOf<std::string>(status, "SyncState"), "synchronized");
    EXPECT_THAT(entryOf<std::string>(status, "Message"), Not(IsEmpty()));
    EXPECT_EQ(desiredOf(status), ResourceValues{});
    EXPECT_EQ(entryOf<std::uint64_t>(status, "ObservedGeneration"),
              entryOf<std::uint64_t>(status, "Generation"));
    EXPECT_EQ(client().managerNumber("MemoryReserved"), 0U);
    EXPECT_TRUE(signals.waitFor("UpdateFailed", container.name(), memoryInUse));
}

// Without swap the kernel cannot reclaim a tmpfs and refuses the limit
// (EBUSY); with swap it may page it out and accept. Either way the cgroup
// files, the status and the answer must agree.
TEST_F(MemoryTest, ForcedShrinkBelowUsageIsAppliedWholeOrNotAtAll)
{
    const auto container = runMemoryHolder();
    ASSERT_TRUE(holdsItsMemory(container));
    const CgroupLimits before = CgroupLimits::read(container.cgroupPath());

    const auto error = errorOf([&] {
        client().updateResources(container.name(), ResourceValues{.memoryMax = shrunkMemory},
                                 shrinkOptions(true));
    });

    const Dictionary status = client().getResourceStatus(container.name());
    const CgroupLimits after = CgroupLimits::read(container.cgroupPath());
    if (error)
    {
        EXPECT_EQ(error->getName(), memoryInUse) << error->getMessage();
        EXPECT_EQ(after, before);
        EXPECT_EQ(entryOf<std::string>(status, "UpdateState"), "failed");
        EXPECT_EQ(desiredOf(status), ResourceValues{});
        expectRunningAndNotOomKilled(container);
    }
    else
    {
        EXPECT_EQ(after.memoryLimit, shrunkMemory);
        EXPECT_EQ(entryOf<std::string>(status, "UpdateState"), "success");
        EXPECT_EQ(desiredOf(status), ResourceValues{.memoryMax = shrunkMemory});
    }
    EXPECT_EQ(actualOf(status).memoryMax,
              after.memoryLimit == unlimitedMemoryReading() ? noLimit : after.memoryLimit);
    EXPECT_EQ(entryOf<std::string>(status, "SyncState"), "synchronized");
}

TEST_F(MemoryTest, FailedApplyRestoresEveryKeyWrittenBeforeIt)
{
    const auto container = runMemoryHolder({"--cpus=1", withoutSwapping});
    client().updateResources(container.name(), ResourceValues{.cpuMillis = 800});
    ASSERT_TRUE(holdsItsMemory(container));
    ASSERT_EQ(CgroupV1(container.cgroupPath()).readNumber("memory", "memory.swappiness"), 0);
    const CgroupLimits before = CgroupLimits::read(container.cgroupPath());
    ASSERT_EQ(before.cpuQuotaUs, 80000);
    const SignalRecorder signals;

    // The CPU decrease is written first; the memory limit the kernel refuses
    // must take it back with it.
    const auto error = errorOf([&] {
        client().updateResources(container.name(),
                                 ResourceValues{.cpuMillis = 400, .memoryMax = 32 * mebibyte},
                                 shrinkOptions(true));
    });

    ASSERT_TRUE(error) << "the kernel accepted a limit below unreclaimable usage";
    EXPECT_EQ(error->getName(), memoryInUse) << error->getMessage();
    EXPECT_EQ(CgroupLimits::read(container.cgroupPath()), before);
    expectRunningAndNotOomKilled(container);
    const Dictionary status = client().getResourceStatus(container.name());
    EXPECT_EQ(entryOf<std::string>(status, "UpdateState"), "failed");
    EXPECT_THAT(entryOf<std::string>(status, "Message"), Not(IsEmpty()));
    EXPECT_EQ(desiredOf(status), ResourceValues{.cpuMillis = 800});
    EXPECT_EQ(actualOf(status).cpuMillis, 800U);
    EXPECT_EQ(entryOf<std::uint64_t>(status, "Generation"), 2U);
    EXPECT_EQ(entryOf<std::uint64_t>(status, "ObservedGeneration"), 2U);
    EXPECT_EQ(client().managerNumber("CpuAllocatedMillis"), 800U);
    EXPECT_EQ(client().managerNumber("CpuReservedMillis"), 0U);
    EXPECT_TRUE(signals.waitFor("UpdateFailed", container.name()));
}

} // namespace
} // namespace resized::integration
