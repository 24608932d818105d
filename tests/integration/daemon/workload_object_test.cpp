// The io.resized1.Workload object of a managed container: its methods do
// what the Manager's do for that workload, and its properties announce every
// change with PropertiesChanged on the object's own path.

#include "daemon_test.h"
#include "properties_recorder.h"
#include "signal_recorder.h"

#include "support/cgroup_v1.h"
#include "support/pipelined_calls.h"
#include "support/wait.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>


#include <fstream>
#include <memory>

namespace resized::integration
{
namespace
{

using ::testing::IsEmpty;

constexpr auto bound = std::chrono::seconds(30);

class WorkloadObjectTest : public ManagedContainerTest
{
  protected:
    CgroupLimits limits() const { return CgroupLimits::read(container().cgroupPath()); }

    // 200m in the container's cgroup, written as somebody other than resized
    // would (the period is 100 ms).
    void driftBehindTheDaemonsBack() const
    {
        std::ofstream(CgroupV1(container().cgroupPath()).file("cpu", "cpu.cfs_quota_us"))
            << "20000";
    }
};

TEST_F(WorkloadObjectTest, UpdateAppliesAndAnswersTheResultingStatus)
{
    const ResourceValues asked{.cpuMillis = 700, .memoryMax = 128 * mebibyte};

    const Dictionary status = client().updateWorkload(workloadPath(), asked);

    EXPECT_EQ(entryOf<std::string>(status, "Workload"), name());
    EXPECT_EQ(desiredOf(status), asked);
    EXPECT_EQ(actualOf(status).cpuMillis, 700U);
    EXPECT_EQ(actualOf(status).memoryMax, 128 * mebibyte);
    EXPECT_EQ(entryOf<std::string>(status, "SyncState"), "synchronized");
    EXPECT_EQ(entryOf<std::string>(status, "UpdateState"), "success");
    EXPECT_EQ(entryOf<std::uint64_t>(status, "Generation"), 2U);
    EXPECT_EQ(entryOf<std::uint64_t>(status, "ObservedGeneration"), 2U);
    EXPECT_EQ(limits().cpuMillis(), 700U);
    EXPECT_EQ(limits().memoryLimit, 128 * mebibyte);
    EXPECT_EQ(client().managerNumber("CpuAllocatedMillis"), 700U);
    EXPECT_EQ(client().managerNumber("MemoryAllocated"), 128 * mebibyte);
    EXPECT_EQ(client().managerNumber("CpuReservedMillis"), 0U);
}

TEST_F(WorkloadObjectTest, ReconcileRepairsALimitChangedBehindTheDaemonsBack)
{
    const SignalRecorder signals;
    driftBehindTheDaemonsBack();
    ASSERT_EQ(limits().cpuMillis(), 200U);

    client().reconcileWorkload(workloadPath());

    EXPECT_TRUE(waitUntil([&] { return limits().cpuMillis() == managed.cpuMillis; }, bound))
        << limits();
    EXPECT_TRUE(signals.waitFor("DriftDetected", name()));
    EXPECT_TRUE(signals.waitFor("ResourcesApplied", name()));
    const Dictionary status = client().getResourceStatus(name());
    EXPECT_EQ(entryOf<std::string>(status, "SyncState"), "synchronized");
    EXPECT_EQ(actualOf(status).cpuMillis, managed.cpuMillis);
    EXPECT_EQ(desiredOf(status), managed);
}

TEST_F(WorkloadObjectTest, ForgetDropsTheWorkloadAndKeepsItsLimits)
{
    const SignalRecorder signals;
    const CgroupLimits before = limits();

    client().forgetWorkload(workloadPath());

    EXPECT_TRUE(signals.waitFor("InterfacesRemoved", workloadPath(), workloadInterface));
    EXPECT_FALSE(client().managedObjects().contains(workloadPath()));
    EXPECT_THAT(client().listWorkloads(), IsEmpty());
    const Dictionary status = client().getResourceStatus(name());
    EXPECT_EQ(entryOf<std::string>(status, "SyncState"), "unknown");
    EXPECT_EQ(desiredOf(status), ResourceValues{});
    EXPECT_EQ(limits(), before) << "Forget changed the limits";
    EXPECT_EQ(client().managerNumber("CpuReservedMillis"), 0U);
}

// Forget, then at once UpdateResources: the daemon reads both calls in one
// go, before the loop iteration that removes the forgotten Workload object,
// whose path the managed-again workload must take.
TEST_F(WorkloadObjectTest, AnUpdateRightAfterForgetPublishesTheWorkloadAgain)
{
    PipelinedCalls calls;
    const auto& forgot = calls.call("Forget", "s", name().c_str());
    const auto& updated = calls.call("UpdateResources", "sa{sv}a{sv}", name().c_str(), 1, "CpuMillis", "t",
                                     std::uint64_t{300}, 0);
    ASSERT_TRUE(calls.waitFor(forgot, bound));
    ASSERT_TRUE(calls.waitFor(updated, bound));

    EXPECT_EQ(forgot.error, "");
    EXPECT_EQ(updated.error, "");
    EXPECT_TRUE(waitUntil([&] { return client().managedObjects().contains(workloadPath()); }, bound));
    EXPECT_EQ(limits().cpuMillis(), 300U);
}

TEST_F(WorkloadObjectTest, PropertiesChangedAnnouncesAnUpdate)
{
    const PropertiesRecorder properties(workloadPath(), workloadInterface);
    const ResourceValues asked{.cpuMillis = 500, .memoryMax = managed.memoryMax};

    client().updateResources(name(), ResourceValues{.cpuMillis = 500});

    EXPECT_TRUE(properties.waitForValue("Desired", asked)) << ::testing::PrintToString(
        properties.valuesOf("Desired"));
    EXPECT_TRUE(properties.waitForValue("Generation", std::uint64_t{2}));
    EXPECT_TRUE(properties.waitForValue("ObservedGeneration", std::uint64_t{2}));
    EXPECT_TRUE(properties.waitForValue("UpdateState", std::string("success")));
    const auto actuals = properties.valuesOf("Actual");
    ASSERT_FALSE(actuals.empty());
    EXPECT_EQ(std::get<ResourceValues>(actuals.back()).cpuMillis, 500U);
    // What was announced last is what the object holds now.
    const Dictionary now = client().workloadProperties(workloadPath());
    EXPECT_EQ(ResourceValues::fromDictionary(entryOf<Dictionary>(now, "Actual")),
              std::get<ResourceValues>(actuals.back()));
}

} // namespace
} // namespace resized::integration
