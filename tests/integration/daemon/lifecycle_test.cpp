// The desired state across daemon restarts and crashes, Forget, and the
// repair of limits changed behind the daemon's back.

#include "daemon_test.h"
#include "signal_recorder.h"

#include "support/cgroup_v1.h"
#include "support/wait.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <future>

namespace resized::integration
{
namespace
{

using ::testing::IsEmpty;

constexpr auto waitTimeout = std::chrono::seconds(30);

const ResourceValues request{.cpuMillis = 600, .memoryMax = 300 * mebibyte};

class LifecycleTest : public DaemonTest
{
  protected:
    // The status must agree with itself and with the cgroup files.
    void expectConsistent(const ScopedContainer& container, const ResourceValues& desired)
    {
        const Dictionary status = client().getResourceStatus(container.name());
        const CgroupLimits limits = CgroupLimits::read(container.cgroupPath());
        EXPECT_EQ(desiredOf(status), desired);
        EXPECT_EQ(entryOf<std::string>(status, "SyncState"), "synchronized");
        EXPECT_EQ(entryOf<std::uint64_t>(status, "ObservedGeneration"),
                  entryOf<std::uint64_t>(status, "Generation"));
        EXPECT_EQ(actualOf(status).cpuMillis, limits.cpuMillis().value_or(noLimit));
        EXPECT_EQ(actualOf(status).memoryMax, limits.memoryLimit == unlimitedMemoryReading()
                                                  ? noLimit
                                                  : limits.memoryLimit);
        EXPECT_EQ(client().managerNumber("CpuReservedMillis"), 0U);
        EXPECT_EQ(client().managerNumber("MemoryReserved"), 0U);
    }

    bool published(const std::string& name)
    {
        return client().managedObjects().contains(sdbus::ObjectPath(workloadPathOf(name)));
    }
};

TEST_F(LifecycleTest, RestartKeepsTheDesiredState)
{
    const auto container = runContainer("c");
    client().updateResources(container.name(), request);
    const Dictionary before = client().getResourceStatus(container.name());

    ASSERT_EQ(daemon().stop(), 0);
    startDaemon();

    const Dictionary after = client().getResourceStatus(container.name());
    EXPECT_EQ(desiredOf(after), desiredOf(before));
    for (const char* key : {"Generation", "ObservedGeneration"})
    {
        EXPECT_EQ(entryOf<std::uint64_t>(after, key), entryOf<std::uint64_t>(before, key))
            << key;
    }
    for (const char* key : {"SyncState", "UpdateState"})
    {
        EXPECT_EQ(entryOf<std::string>(after, key), entryOf<std::string>(before, key)) << key;
    }
    EXPECT_TRUE(published(container.name()));
    EXPECT_EQ(CgroupLimits::read(container.cgroupPath()).cpuQuotaUs, 60000);
    expectConsistent(container, request);
}

TEST_F(LifecycleTest, CrashRightAfterAnUpdateRestartsConsistent)
{
    const auto container = runContainer("c");
    client().updateResources(container.name(), request);

    daemon().kill9();
    startDaemon();

    expectConsistent(container, request);
    EXPECT_EQ(entryOf<std::uint64_t>(client().getResourceStatus(container.name()), "Generation"),
              1U);
    EXPECT_TRUE(published(container.name()));
    EXPECT_EQ(client().managerNumber("CpuAllocatedMillis"), 600U);
}

TEST_F(LifecycleTest, CrashDuringAMemoryShrinkRestoresThePreviousLimits)
{
    constexpr std::uint64_t heldMebibytes = 200;
    const auto container = ScopedContainer::holdingMemory(podman(), containerName("holder"),
                                                          heldMebibytes);
    ASSERT_TRUE(CgroupV1(container.cgroupPath())
                    .waitForMemoryUsageAbove(150 * mebibyte, std::chrono::seconds(60)));
    const CgroupLimits before = CgroupLimits::read(container.cgroupPath());

    // The shrink waits for reclaim that never comes; the daemon dies waiting.
    auto pending = startMemoryShrink(container, ResourceValues{.memoryMax = 64 * mebibyte},
                                     std::chrono::seconds(20));
    daemon().kill9();
    EXPECT_TRUE(pending.get()) << "the interrupted update was answered with success";
    startDaemon();

    EXPECT_EQ(CgroupLimits::read(container.cgroupPath()), before);
    expectConsistent(container, ResourceValues{});
    EXPECT_EQ(entryOf<std::string>(client().getResourceStatus(container.name()), "UpdateState"),
              "failed");
}

TEST_F(LifecycleTest, ForgetDropsTheWorkloadAndKeepsItsLimits)
{
    const auto container = runContainer("c", {"--cpus=0.5"});
    client().updateResources(container.name(), ResourceValues{.cpuMillis = 800});
    ASSERT_EQ(client().managerNumber("CpuAllocatedMillis"), 800U);
    const std::string path = workloadPathOf(container.name());
    const SignalRecorder signals;

    client().forget(container.name());

    EXPECT_TRUE(signals.waitFor("InterfacesRemoved", path, workloadInterface));
    EXPECT_FALSE(published(container.name()));
    EXPECT_THAT(client().listWorkloads(), IsEmpty());
    EXPECT_EQ(CgroupLimits::read(container.cgroupPath()).cpuQuotaUs, 80000);
    // Unmanaged now, it counts at what its cgroup holds, not at --cpus=0.5.
    EXPECT_EQ(client().managerNumber("CpuAllocatedMillis"), 800U);
    const Dictionary status = client().getResourceStatus(container.name());
    EXPECT_EQ(desiredOf(status), ResourceValues{});
    EXPECT_EQ(entryOf<std::uint64_t>(status, "Generation"), 0U);
    EXPECT_EQ(entryOf<std::string>(status, "UpdateState"), "unknown");
}

// The drift is made after the daemon handled the container's start event,
// which reconciles too, so that the repair seen is Reconcile's.
TEST_F(LifecycleTest, ReconcileRepairsALimitChangedBehindItsBack)
{
    const auto container = runContainer("c", {"--cpus=0.1"});
    ASSERT_TRUE(daemon().waitForStartEvent(container.name()));
    client().updateResources(container.name(), request);
    const SignalRecorder signals;

    std::ofstream(CgroupV1(container.cgroupPath()).file("cpu", "cpu.cfs_quota_us")) << "30000";
    ASSERT_EQ(CgroupLimits::read(container.cgroupPath()).cpuQuotaUs, 30000);
    client().reconcile(container.name());

    EXPECT_TRUE(signals.waitFor("DriftDetected", container.name()));
    EXPECT_TRUE(waitUntil(
        [&] { return CgroupLimits::read(container.cgroupPath()).cpuQuotaUs == 60000; },
        waitTimeout));
    EXPECT_TRUE(waitUntil(
        [&] {
            return entryOf<std::string>(client().getResourceStatus(container.name()),
                                        "SyncState") == "synchronized";
        },
        waitTimeout));
    expectConsistent(container, request);
}

TEST_F(LifecycleTest, ReconcileOfEverythingRepairsEveryWorkload)
{
    const auto first = runContainer("first", {"--cpus=0.1"});
    const auto second = runContainer("second", {"--cpus=0.1"});
    ASSERT_TRUE(cpuAllocationReaches(200));
    client().updateResources(first.name(), request);
    client().updateResources(second.name(), request);
    const SignalRecorder signals;

    std::ofstream(CgroupV1(first.cgroupPath()).file("memory", "memory.limit_in_bytes"))
        << 400 * mebibyte;
    std::ofstream(CgroupV1(second.cgroupPath()).file("cpu", "cpu.cfs_quota_us")) << "-1";
    client().reconcile("");

    EXPECT_TRUE(signals.waitFor("DriftDetected", first.name()));
    EXPECT_TRUE(signals.waitFor("DriftDetected", second.name()));
    EXPECT_TRUE(waitUntil(
        [&] {
            return CgroupLimits::read(first.cgroupPath()).memoryLimit == 300 * mebibyte &&
                   CgroupLimits::read(second.cgroupPath()).cpuQuotaUs == 60000;
        },
        waitTimeout));
    expectConsistent(first, request);
    expectConsistent(second, request);
}

} // namespace
} // namespace resized::integration
