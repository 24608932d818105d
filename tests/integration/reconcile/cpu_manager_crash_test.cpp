// Crash consistency of the CPU manager's static policy: resized killed at
// each step of an update that gives a slice or a pod's bubble, then started
// again. What each test expects follows from the CPUs online, any number
// from two up: the host runs them, and the VM tier in its guest (4 CPUs in
// 2 NUMA nodes, systemd and cgroup v2; tests/vm/guest-test.sh).

#include "crash_fixture.h"

#include "support/cgroup_hierarchy.h"
#include "support/host_cpus.h"
#include "support/scoped_pod.h"
#include "support/wait.h"

#include <gtest/gtest.h>

namespace resized::integration
{
namespace
{

// A slice and the shared pool it leaves need two CPUs: skipped on a machine
// with one (the caller checks IsSkipped()).
void skipUnlessTwoCpusOrMore()
{
    if (onlineCpuCount() < 2)
    {
        GTEST_SKIP() << "a slice and a shared pool need 2 CPUs, this machine has " << onlineCpuList();
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
    const std::string podCpus = cpusOf(pod.cgroupPath());
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

INSTANTIATE_TEST_SUITE_P(Failpoints, CrashTest, ::testing::ValuesIn(updateFailpoints), testNameOf);

} // namespace
} // namespace resized::integration
