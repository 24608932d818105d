// The state database refuses the outcome of an update that already changed
// the cgroup (another process holds it locked past the busy timeout). The
// caller is answered, the cgroup holds what the store says, the
// reservation is given back once the store takes writes again, and the
// workload's queued callers are served then.

#include "state_database.h"

#include "daemon/daemon_test.h"
#include "support/cgroup_v1.h"
#include "support/wait.h"

#include <gtest/gtest.h>

#include <chrono>
#include <future>

namespace resized::integration
{
namespace
{

using namespace std::chrono_literals;

constexpr std::uint64_t mebibyte = std::uint64_t{1} << 20;

using StoreErrorTest = DaemonTest;

TEST_F(StoreErrorTest, AnOutcomeTheStoreRefusesIsAnsweredUndoneAndResolvedLater)
{
    const auto container = ScopedContainer::holdingMemory(podman(), containerName("holder"), 200);
    ASSERT_TRUE(CgroupV1(container.cgroupPath()).waitForMemoryUsageAbove(150 * mebibyte, 60s));
    client().updateResources(container.name(), ResourceValues{.cpuMillis = 300});
    const CgroupLimits before = CgroupLimits::read(container.cgroupPath());
    const std::filesystem::path stateFile = daemon().options().stateDirectory / "state.db";

    // A shrink that waits for reclaim: its outcome is committed only after
    // the lock below is taken.
    auto shrink = std::async(std::launch::async, [&] {
        ResizedClient ownClient;
        return errorOf([&] {
            ownClient.updateResources(container.name(), ResourceValues{.memoryMax = 64 * mebibyte},
                                      {{"ReclaimTimeoutUSec", sdbus::Variant(std::uint64_t{3'000'000})}});
        });
    });
    ASSERT_TRUE(waitUntil(
        [&] { return CgroupLimits::read(container.cgroupPath()).memorySoftLimit != before.memorySoftLimit; },
        30s))
        << "the shrink never started";
    StateDatabase otherWriter(stateFile);
    otherWriter.lockExclusively();
    // Queued behind the shrink: served only once the shrink is resolved.
    auto queued = std::async(std::launch::async, [&] {
        ResizedClient ownClient;
        return errorOf([&] {
            ownClient.updateResources(container.name(), ResourceValues{.cpuMillis = 400});
        });
    });

    ASSERT_EQ(shrink.wait_for(30s), std::future_status::ready) << "the shrink was never answered";
    const auto shrinkError = shrink.get();
    ASSERT_TRUE(shrinkError) << "the shrink was answered with success";
    EXPECT_EQ(shrinkError->getName(), "io.resized1.Error.ApplyFailed") << shrinkError->getMessage();
    EXPECT_EQ(CgroupLimits::read(container.cgroupPath()), before);
    EXPECT_EQ(queued.wait_for(0s), std::future_status::timeout) << "a queued caller overtook the shrink";

    otherWriter.release();
    EXPECT_TRUE(waitUntil([&] { return client().managerNumber("MemoryReserved") == 0; }, 30s))
        << "the reservation stayed after the store took writes again";
    const auto queuedError = queued.get();
    EXPECT_FALSE(queuedError) << queuedError->getName() << ": " << queuedError->getMessage();
    EXPECT_EQ(CgroupLimits::read(container.cgroupPath()).cpuMillis(), 400U);
    EXPECT_EQ(CgroupLimits::read(container.cgroupPath()).memoryLimit, before.memoryLimit);
    const auto status = client().getResourceStatus(container.name());
    EXPECT_EQ(desiredOf(status).memoryMax, std::nullopt);
    EXPECT_EQ(client().managerNumber("CpuReservedMillis"), 0U);
    EXPECT_EQ(StateDatabase(stateFile).integrityCheck(), "ok");
}

} // namespace
} // namespace resized::integration
