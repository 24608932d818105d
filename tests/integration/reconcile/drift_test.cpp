// Drift made for real: cgroup files changed behind resized's back are found
// and repaired, on request and by the periodic sync.

#include "manager_signals.h"
#include "reconcile_test.h"

#include "support/wait.h"

#include <gtest/gtest.h>

namespace resized::integration
{
namespace
{

constexpr std::uint64_t desiredMillis = 1000;
// 300 millicores with the default period: far outside the rounding the
// daemon tolerates.
constexpr auto driftedQuota = "30000";
constexpr std::uint64_t driftedMillis = 300;

class DriftTest : public ReconcileTest
{
  protected:
    // Checks what a repair of container's CPU limit leaves behind.
    void expectRepaired(const ScopedContainer& container, const ManagerSignals& signals)
    {
        ASSERT_TRUE(signals.waitForCount("DriftDetected", container.name(), 1, backgroundTimeout));
        const auto drift = signals.received("DriftDetected", container.name()).front();
        EXPECT_EQ(ResourceValues::fromDictionary(drift.resources.at(0)).cpuMillis, desiredMillis);
        EXPECT_EQ(ResourceValues::fromDictionary(drift.resources.at(1)).cpuMillis, driftedMillis);

        EXPECT_TRUE(waitForCpuMillis(container, desiredMillis)) << limitsOf(container);
        EXPECT_TRUE(waitForSyncState(container.name(), "synchronized"));
        const auto status = client().getResourceStatus(container.name());
        EXPECT_EQ(actualOf(status).cpuMillis, desiredMillis);
        EXPECT_EQ(desiredOf(status).cpuMillis, desiredMillis);
    }
};

TEST_F(DriftTest, ReconcileRepairsAQuotaWrittenBehindTheDaemonsBack)
{
    startDaemon();
    const auto container = runContainer("c");
    client().updateResources(container.name(), cpuMillis(desiredMillis));
    ASSERT_EQ(limitsOf(container).cpuMillis(), desiredMillis);

    const ManagerSignals signals;
    writeBehindTheDaemon(container, "cpu", "cpu.cfs_quota_us", driftedQuota);
    // The container's own start event may still be on its way and repair the
    // drift first; either way exactly one repair is reported.
    client().reconcile(container.name());
    expectRepaired(container, signals);
}

TEST_F(DriftTest, ReconcileOfAllRepairsEveryDriftedWorkload)
{
    startDaemon();
    const auto cpuDrifted = runContainer("cpu");
    const auto memoryDrifted = runContainer("memory");
    const std::uint64_t memoryMax = 256 * mebibyte;
    client().updateResources(cpuDrifted.name(), cpuMillis(desiredMillis));
    client().updateResources(memoryDrifted.name(), ResourceValues{.memoryMax = memoryMax});

    const ManagerSignals signals;
    writeBehindTheDaemon(cpuDrifted, "cpu", "cpu.cfs_quota_us", driftedQuota);
    writeBehindTheDaemon(memoryDrifted, "memory", "memory.limit_in_bytes",
                         std::to_string(512 * mebibyte));

    client().reconcile("");
    expectRepaired(cpuDrifted, signals);
    ASSERT_TRUE(signals.waitForCount("DriftDetected", memoryDrifted.name(), 1, backgroundTimeout));
    EXPECT_TRUE(waitUntil([&] { return limitsOf(memoryDrifted).memoryLimit == memoryMax; },
                          backgroundTimeout))
        << limitsOf(memoryDrifted);
    EXPECT_TRUE(waitForSyncState(memoryDrifted.name(), "synchronized"));
}

TEST_F(DriftTest, PeriodicSyncRepairsDriftWithoutBeingAsked)
{
    writeConfig("[Node]\nReservedCPU=0\n[Sync]\nIntervalSec=1\n");
    startDaemon();
    const auto container = runContainer("c");
    client().updateResources(container.name(), cpuMillis(desiredMillis));

    const ManagerSignals signals;
    writeBehindTheDaemon(container, "cpu", "cpu.cfs_quota_us", driftedQuota);
    expectRepaired(container, signals);
}

} // namespace
} // namespace resized::integration
