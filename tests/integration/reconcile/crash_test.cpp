// Crash consistency: resized killed (SIGKILL, by its own failpoints) at each
// step of an update, then started again. Whatever the step, the store and
// the cgroup files agree afterwards, no reservation is left and no desired
// state of another key is lost.

#include "reconcile_test.h"

#include "support/cgroup_v1.h"
#include "support/host_cpus.h"
#include "support/scoped_pod.h"
#include "support/wait.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <csignal>

namespace resized::integration
{
namespace
{

// What a restart makes of the interrupted update: the cgroup keeps or gets
// back the old value, or it already held the new one and the update is
// completed.
enum class Outcome
{
    Undone,
    Completed,
};

struct Failpoint
{
    const char* name;
    Outcome outcome;
};

std::ostream& operator<<(std::ostream& stream, const Failpoint& failpoint)
{
    return stream << failpoint.name;
}

std::string testNameOf(const ::testing::TestParamInfo<Failpoint>& info)
{
    std::string name = info.param.name;
    std::replace(name.begin(), name.end(), '-', '_');
    return name;
}

constexpr std::uint64_t initialMillis = 500;
// Each differs from the one before and from initialMillis.
constexpr std::uint64_t requestedMillis[] = {700, 400, 900};
constexpr std::uint64_t committedMemoryMax = 256 * mebibyte;

class CrashTest : public ReconcileTest, public ::testing::WithParamInterface<Failpoint>
{
  protected:
    // The update that kills the daemon at the failpoint: the call has no
    // answer and the daemon ends with SIGKILL, which proves that the
    // failpoint was reached (a build without failpoints would just apply it).
    void crashWhileUpdating(const std::string& workload, std::uint64_t millis)
    {
        crashWhileUpdating(workload, cpuMillis(millis));
    }

    // A slice and the shared pool it leaves need two CPUs: skipped on a
    // machine with one (the caller checks IsSkipped()).
    static void skipUnlessTwoCpusOrMore()
    {
        if (onlineCpuCount() < 2)
        {
            GTEST_SKIP() << "a slice and a shared pool need 2 CPUs, this machine has " << onlineCpuList();
        }
    }

    void crashWhileUpdating(const std::string& workload, const Dictionary& resources)
    {
        startDaemon({std::string("RESIZED_FAILPOINT=") + GetParam().name});
        EXPECT_TRUE(errorOf([&] { client().updateResources(workload, resources); }))
            << "the update answered although the daemon should have died";
        ASSERT_TRUE(waitUntil([&] { return !daemon().running(); }, backgroundTimeout))
            << "resized did not die at " << GetParam().name;
        EXPECT_EQ(daemon().kill9(), 128 + SIGKILL);
    }
};

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
        crashWhileUpdating(name, requested);
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

// An exclusive slice (the CPU manager's static policy) is the holder's
// desired state: it is given wholly or not at all, and the pools the bus
// shows agree with the cgroup.
TEST_P(CrashTest, ASliceIsGivenWhollyOrNotAtAll)
{
    skipUnlessTwoCpusOrMore();
    if (IsSkipped())
    {
        return;
    }
    writeConfig("[Node]\nReservedCPU=0\n[Sync]\nIntervalSec=3600\n[CpuManager]\nPolicy=static\n");
    startDaemon();
    const auto container = runContainer("s");
    crashWhileUpdating(container.name(), ResourceValues{.exclusiveCpus = 1}.toDictionary());
    startDaemon();

    const CgroupLimits limits = limitsOf(container);
    const auto status = client().getResourceStatus(container.name());
    const auto manager = client().managerProperties();
    EXPECT_EQ(entryOf<std::string>(status, "SyncState"), "synchronized");
    EXPECT_EQ(client().managerNumber("CpuReservedMillis"), 0u);
    if (GetParam().outcome == Outcome::Completed)
    {
        EXPECT_TRUE(isOneOnlineCpu(limits.cpus)) << limits;
        EXPECT_EQ(limits.cpuMillis(), std::nullopt);
        EXPECT_EQ(desiredOf(status), (ResourceValues{.cpuMillis = noLimit, .allowedCpus = limits.cpus,
                                                     .exclusiveCpus = 1}));
        EXPECT_EQ(actualOf(status).exclusiveCpus, 1u);
        EXPECT_EQ(entryOf<std::string>(manager, "ExclusiveCpuSet"), limits.cpus);
        EXPECT_EQ(client().managerNumber("CpuAllocatedMillis"), 1000u);
    }
    else
    {
        EXPECT_EQ(limits.cpus, onlineCpuList());
        EXPECT_EQ(desiredOf(status).exclusiveCpus, std::nullopt);
        EXPECT_EQ(entryOf<std::string>(manager, "ExclusiveCpuSet"), "");
        EXPECT_EQ(client().managerNumber("CpuAllocatedMillis"), 0u);
    }
}

// A pod's bubble (TopologyScope=pod) moves the pod's cgroup and every cgroup
// inside it in one change: after the restart all of them run on the bubble
// or none does.
TEST_P(CrashTest, ABubbleTakesThePodAlongWhollyOrNotAtAll)
{
    skipUnlessTwoCpusOrMore();
    if (IsSkipped())
    {
        return;
    }
    writeConfig("[Node]\nReservedCPU=0\n[Sync]\nIntervalSec=3600\n[CpuManager]\nPolicy=static\nTopologyScope=pod\n");
    startDaemon();
    // A pod's name is its hostname: the test's label would be too long.
    const ScopedPod pod(podman(), std::string("bubble-") + GetParam().name, ScopedPod::Infra::with);
    const auto member = runContainer("m", {"--pod", pod.name()});
    crashWhileUpdating("pod:" + pod.name(), ResourceValues{.exclusiveCpus = 1}.toDictionary());
    startDaemon();

    const auto status = client().getResourceStatus("pod:" + pod.name());
    const std::string podCpus = CgroupV1(pod.cgroupPath()).read("cpuset", "cpuset.cpus");
    EXPECT_EQ(entryOf<std::string>(status, "SyncState"), "synchronized");
    EXPECT_EQ(client().managerNumber("CpuReservedMillis"), 0u);
    EXPECT_EQ(entryOf<std::string>(client().managerProperties(), "ExclusiveCpuSet"),
              GetParam().outcome == Outcome::Completed ? podCpus : "");
    if (GetParam().outcome == Outcome::Completed)
    {
        EXPECT_TRUE(isOneOnlineCpu(podCpus)) << podCpus;
        EXPECT_EQ(desiredOf(status).exclusiveCpus, 1u);
        EXPECT_EQ(client().managerNumber("CpuAllocatedMillis"), 1000u);
    }
    else
    {
        EXPECT_EQ(podCpus, onlineCpuList());
        EXPECT_EQ(desiredOf(status).exclusiveCpus, std::nullopt);
    }
    // Its member (and the infra container and conmon) with it: the first
    // pass of the restarted daemon gives back what an undone bubble took.
    EXPECT_TRUE(waitUntil([&] { return limitsOf(member).cpus == podCpus; }, backgroundTimeout))
        << limitsOf(member) << ", the pod " << podCpus;
}

INSTANTIATE_TEST_SUITE_P(Failpoints, CrashTest,
                         ::testing::Values(Failpoint{"after-reserve", Outcome::Undone},
                                           Failpoint{"after-write", Outcome::Completed},
                                           Failpoint{"before-commit", Outcome::Completed},
                                           Failpoint{"after-commit", Outcome::Completed}),
                         testNameOf);

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
