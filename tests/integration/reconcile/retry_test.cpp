// Retries of a repair that fails for real: the container lives under a
// cgroup parent of the test's own whose CPU quota is then lowered, so that
// the kernel refuses (EINVAL) to give the container back its desired quota.

#include "manager_signals.h"
#include "reconcile_test.h"

#include "support/cgroup_parent.h"
#include "support/wait.h"

#include <gtest/gtest.h>

#include <chrono>

namespace resized::integration
{
namespace
{

constexpr unsigned retryAttempts = 3;
constexpr auto retryInterval = std::chrono::seconds(1);
constexpr std::uint64_t desiredMillis = 1000;
// The drift: 300 millicores, under the parent's 600.
constexpr auto driftedQuota = "30000";
constexpr std::uint64_t driftedMillis = 300;
constexpr auto parentQuota = "60000";

class RetryTest : public ReconcileTest
{
  protected:
    void SetUp() override
    {
        ReconcileTest::SetUp();
        if (IsSkipped())
        {
            return;
        }
        // No periodic sync: every attempt seen is the first one or a retry.
        writeConfig("[Node]\nReservedCPU=0\n"
                    "[Sync]\nIntervalSec=3600\nRetryAttempts=" +
                    std::to_string(retryAttempts) + "\nRetryIntervalSec=" +
                    std::to_string(retryInterval.count()) + "\n");
        startDaemon();
    }
};

TEST_F(RetryTest, FailedRepairIsRetriedThenLeftFailedUntilAskedAgain)
{
    const ScopedCgroupParent parent("retry");
    const auto container = runContainer("c", {"--cgroup-parent=" + parent.path()});
    const std::string& name = container.name();
    client().updateResources(name, cpuMillis(desiredMillis));
    ASSERT_EQ(limitsOf(container).cpuMillis(), desiredMillis);

    const ManagerSignals signals;
    writeBehindTheDaemon(container, "cpu", "cpu.cfs_quota_us", driftedQuota);
    parent.write("cpu", "cpu.cfs_quota_us", parentQuota);

    client().reconcile(name);
    ASSERT_TRUE(signals.waitForCount("UpdateFailed", name, retryAttempts, backgroundTimeout))
        << signals.count("UpdateFailed", name) << " failed attempts";
    ASSERT_TRUE(waitForSyncState(name, "failed"));
    EXPECT_EQ(limitsOf(container).cpuMillis(), driftedMillis) << limitsOf(container);
    EXPECT_EQ(desiredOf(client().getResourceStatus(name)).cpuMillis, desiredMillis);
    for (const auto& failure : signals.received("UpdateFailed", name))
    {
        EXPECT_EQ(failure.names, std::vector<std::string>{"io.resized1.Error.ApplyFailed"});
    }

    // The retries double their interval (1 s, then 2 s): a fourth attempt
    // would come 4 s after the third. Watching for twice that long, no
    // attempt may follow; one that does ends the watch at once.
    const auto nextRetryInterval = retryInterval * (1u << (retryAttempts - 1));
    EXPECT_FALSE(signals.waitForCount("UpdateFailed", name, retryAttempts + 1,
                                      2 * nextRetryInterval))
        << "a repair was attempted after the last retry";
    EXPECT_EQ(signals.count("UpdateFailed", name), retryAttempts);
    EXPECT_EQ(syncStateOf(name), "failed");

    // Once the parent allows it again, a Reconcile repairs.
    parent.write("cpu", "cpu.cfs_quota_us", "-1");
    client().reconcile(name);
    EXPECT_TRUE(waitForCpuMillis(container, desiredMillis)) << limitsOf(container);
    EXPECT_TRUE(waitForSyncState(name, "synchronized"));
    EXPECT_TRUE(signals.waitForCount("ResourcesApplied", name, 1, backgroundTimeout));
}

} // namespace
} // namespace resized::integration
