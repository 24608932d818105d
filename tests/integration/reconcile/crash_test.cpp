// Crash consistency: resized killed (SIGKILL, by its own failpoints) at each
// step of an update, then started again. Whatever the step, the store and
// the cgroup files agree afterwards, no reservation is left and no desired
// state of another key is lost. The CPU manager's slices and bubbles:
// cpu_manager_crash_test.cpp.

#include "crash_fixture.h"

#include "support/wait.h"

#include <gtest/gtest.h>

#include <csignal>

namespace resized::integration
{
namespace
{

constexpr std::uint64_t initialMillis = 500;
// Each differs from the one before and from initialMillis.
constexpr std::uint64_t requestedMillis[] = {700, 400, 900};
constexpr std::uint64_t committedMemoryMax = 256 * mebibyte;

// Recovery reads the cgroup the update was admitted for, not Podman: a
// Podman that is down when resized comes back must not make an update the
// cgroup already holds look undone (issue 13).
TEST_F(ReconcileTest, RecoveryWithPodmanDownCompletesWhatTheCgroupHolds)
{
    startDaemon();
    const auto container = runContainer("c");
    client().updateResources(container.name(), cpuMillis(initialMillis));
    startDaemon({"RESIZED_FAILPOINT=after-write"});
    EXPECT_TRUE(errorOf([&] { client().updateResources(container.name(), cpuMillis(700)); }));
    ASSERT_TRUE(waitUntil([&] { return !daemon().running(); }, backgroundTimeout));
    daemon().kill9();

    startDaemonWithoutPodman();
    EXPECT_EQ(limitsOf(container).cpuMillis(), 700U);
    const auto status = client().getResourceStatus(container.name());
    EXPECT_EQ(desiredOf(status).cpuMillis, 700U);
    EXPECT_EQ(entryOf<std::string>(status, "UpdateState"), "success");
    EXPECT_EQ(client().managerNumber("CpuReservedMillis"), 0U);
}

TEST_P(CrashTest, RestartLeavesStoreAndCgroupInAgreement)
{
    startDaemon();
    const auto container = runContainer("c");
    const std::string& name = container.name();
    client().updateResources(name, ResourceValues{.cpuMillis = initialMillis,
                                                  .memoryMax = committedMemoryMax});

    std::uint64_t before = initialMillis;
    for (const std::uint64_t requested : requestedMillis)
    {
        SCOPED_TRACE("update from " + std::to_string(before) + " to " + std::to_string(requested));
        crashWhileUpdating(name, cpuMillis(requested));
        startDaemon();

        const std::uint64_t expected = GetParam().outcome == Outcome::Completed ? requested : before;
        const CgroupLimits limits = limitsOf(container);
        EXPECT_EQ(limits.cpuMillis(), expected) << limits;
        const auto status = client().getResourceStatus(name);
        EXPECT_EQ(desiredOf(status).cpuMillis, limits.cpuMillis());
        EXPECT_EQ(actualOf(status).cpuMillis, limits.cpuMillis());
        EXPECT_EQ(entryOf<std::string>(status, "SyncState"), "synchronized");
        EXPECT_EQ(entryOf<std::string>(status, "UpdateState"),
                  GetParam().outcome == Outcome::Completed ? "success" : "failed");
        EXPECT_EQ(entryOf<std::uint64_t>(status, "ObservedGeneration"),
                  entryOf<std::uint64_t>(status, "Generation"));
        EXPECT_EQ(client().managerNumber("CpuReservedMillis"), 0u);
        EXPECT_EQ(client().managerNumber("CpuAllocatedMillis"), limits.cpuMillis().value_or(0));

        EXPECT_EQ(desiredOf(status).memoryMax, committedMemoryMax);
        EXPECT_EQ(limits.memoryLimit, committedMemoryMax);
        before = limits.cpuMillis().value_or(0);
    }
}

INSTANTIATE_TEST_SUITE_P(Failpoints, CrashTest, ::testing::ValuesIn(updateFailpoints), testNameOf);

class PlanCrashTest : public ReconcileTest, public ::testing::WithParamInterface<Failpoint>
{
};

// A plan moving CPU from one container to another, killed at each step:
// after the restart both changes are there or neither is, the plan's state
// says which, and no reservation is left.
TEST_P(PlanCrashTest, RestartFinishesOrUndoesEveryChangeOfThePlan)
{
    startDaemon();
    const auto from = runContainer("from");
    const auto to = runContainer("to");
    client().updateResources(from.name(), cpuMillis(800));
    client().updateResources(to.name(), cpuMillis(200));
    startDaemon({std::string("RESIZED_FAILPOINT=") + GetParam().name});

    const auto plan = client().submitPlan({{from.name(), cpuMillis(300)}, {to.name(), cpuMillis(700)}});
    ASSERT_TRUE(waitUntil([&] { return !daemon().running(); }, backgroundTimeout))
        << "resized did not die at " << GetParam().name;
    EXPECT_EQ(daemon().kill9(), 128 + SIGKILL);
    startDaemon();

    const bool completed = GetParam().outcome == Outcome::Completed;
    EXPECT_EQ(limitsOf(from).cpuMillis(), completed ? 300U : 800U);
    EXPECT_EQ(limitsOf(to).cpuMillis(), completed ? 700U : 200U);
    const Dictionary properties = client().planProperties(plan);
    EXPECT_EQ(entryOf<std::string>(properties, "State"), completed ? "succeeded" : "failed");
    EXPECT_EQ(entryOf<std::string>(properties, "Reason"), completed ? "" : "apply");
    for (const auto* container : {&from, &to})
    {
        const auto status = client().getResourceStatus(container->name());
        EXPECT_EQ(desiredOf(status).cpuMillis, limitsOf(*container).cpuMillis());
        EXPECT_EQ(entryOf<std::string>(status, "SyncState"), "synchronized");
    }
    EXPECT_EQ(client().managerNumber("CpuReservedMillis"), 0U);
    EXPECT_EQ(client().managerNumber("CpuAllocatedMillis"), 1000U);
}

INSTANTIATE_TEST_SUITE_P(Failpoints, PlanCrashTest,
                         ::testing::Values(Failpoint{"plan-after-reserve", Outcome::Undone},
                                           Failpoint{"between-cgroups", Outcome::Undone},
                                           Failpoint{"plan-before-commit", Outcome::Completed}),
                         testNameOf);

} // namespace
} // namespace resized::integration
