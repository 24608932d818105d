// The Manager's properties announce their changes with PropertiesChanged,
// carrying the new values: the runtime connection when Podman's API service
// goes and comes back, and the budget (allocated, reserved, available) when
// an update takes, holds and releases capacity.

#include "daemon_test.h"
#include "properties_recorder.h"

#include "support/cgroup_v1.h"
#include "support/podman_service.h"
#include "support/wait.h"

#include <gtest/gtest.h>

#include <future>

namespace resized::integration
{
namespace
{

// The reconnection backs off up to 30 s between attempts.
constexpr auto reconnectTimeout = std::chrono::seconds(60);

using PropertiesTest = DaemonTest;

TEST_F(PropertiesTest, RuntimeConnectedFollowsThePodmanService)
{
    PodmanService service(environment().directory / "properties-podman.sock",
                          environment().directory / "properties-podman.log");
    daemonOptions().podmanSocket = service.socket();
    startDaemon();
    ASSERT_TRUE(waitUntil([&] { return client().managerProperty("RuntimeConnected").get<bool>(); },
                          reconnectTimeout));
    const PropertiesRecorder properties(managerPath, managerInterface);

    service.kill();

    EXPECT_TRUE(properties.waitForValue("RuntimeConnected", false, reconnectTimeout))
        << ::testing::PrintToString(properties.valuesOf("RuntimeConnected"));
    EXPECT_FALSE(client().managerProperty("RuntimeConnected").get<bool>());

    service.start();

    EXPECT_TRUE(properties.waitForValue("RuntimeConnected", true, reconnectTimeout))
        << ::testing::PrintToString(properties.valuesOf("RuntimeConnected"));
    EXPECT_TRUE(client().managerProperty("RuntimeConnected").get<bool>());
}

TEST_F(PropertiesTest, AnUpdateAnnouncesWhatItAllocates)
{
    const auto container = runContainer("c");
    const std::uint64_t cpuCapacity = client().managerNumber("CpuCapacityMillis");
    const std::uint64_t memoryCapacity = client().managerNumber("MemoryCapacity");
    const PropertiesRecorder properties(managerPath, managerInterface);

    client().updateResources(container.name(),
                             ResourceValues{.cpuMillis = 600, .memoryMax = 160 * mebibyte});

    EXPECT_TRUE(properties.waitForValue("CpuAllocatedMillis", std::uint64_t{600}));
    EXPECT_TRUE(properties.waitForValue("CpuAvailableMillis", cpuCapacity - 600));
    EXPECT_TRUE(properties.waitForValue("MemoryAllocated", 160 * mebibyte));
    EXPECT_TRUE(properties.waitForValue("MemoryAvailable", memoryCapacity - 160 * mebibyte));

    client().updateResources(container.name(), ResourceValues{.memoryMax = 96 * mebibyte});

    EXPECT_TRUE(properties.waitForValue("MemoryAllocated", 96 * mebibyte));
    EXPECT_TRUE(properties.waitForValue("MemoryAvailable", memoryCapacity - 96 * mebibyte));
}

// An update holds its reservation while it waits: here for a memory shrink
// that cannot reclaim (the container holds its memory in a tmpfs), while the
// CPU increase of the same request is reserved. The reservation is visible
// and announced while the call is open, and released when it is answered.
TEST_F(PropertiesTest, AReservationIsAnnouncedWhileItsUpdateRuns)
{
    constexpr std::uint64_t heldMebibytes = 96;
    const auto container = ScopedContainer::holdingMemory(podman(), containerName("holder"),
                                                          heldMebibytes);
    ASSERT_TRUE(CgroupV1(container.cgroupPath())
                    .waitForMemoryUsageAbove(heldMebibytes * mebibyte, std::chrono::seconds(60)));
    client().updateResources(container.name(), ResourceValues{.cpuMillis = 300});
    const std::uint64_t cpuCapacity = client().managerNumber("CpuCapacityMillis");
    const PropertiesRecorder properties(managerPath, managerInterface);

    auto update = std::async(std::launch::async, [&] {
        ResizedClient ownClient;
        return errorOf([&] {
            ownClient.updateResources(
                container.name(), ResourceValues{.cpuMillis = 500, .memoryMax = 32 * mebibyte},
                {{"ReclaimTimeoutUSec", sdbus::Variant(std::uint64_t{5'000'000})}});
        });
    });

    EXPECT_TRUE(properties.waitForValue("CpuReservedMillis", std::uint64_t{200}))
        << ::testing::PrintToString(properties.valuesOf("CpuReservedMillis"));
    EXPECT_TRUE(properties.waitForValue("CpuAvailableMillis", cpuCapacity - 300 - 200));
    const auto error = update.get();
    ASSERT_TRUE(error) << "the shrink below the held memory was applied";
    EXPECT_EQ(error->getName(), "io.resized1.Error.MemoryInUse");
    EXPECT_TRUE(properties.waitForValue("CpuReservedMillis", std::uint64_t{0}));
    EXPECT_TRUE(properties.waitForValue("CpuAvailableMillis", cpuCapacity - 300));
    EXPECT_EQ(client().managerNumber("CpuReservedMillis"), 0U);
    EXPECT_EQ(CgroupLimits::read(container.cgroupPath()).cpuMillis(), 300U);
}

} // namespace
} // namespace resized::integration
