// The CPU manager's static policy (design.md §1b) on this machine's CPUs,
// real containers and their cpusets: an exclusive slice is its holder's
// alone, without a quota, and every other container — managed or not,
// started before or after — runs on the shared pool. What each test expects
// follows from the CPUs online here, any number from two up. They run on the
// host (cgroup v1, Podman's cgroupfs manager) and in the VM tier's guest
// (cgroup v2, systemd's scopes and slices; tests/vm/guest-test.sh).

#include "events_test.h"
#include "support/cgroup_hierarchy.h"
#include "support/host_cpus.h"
#include "support/scoped_pod.h"
#include "support/wait.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace resized::integration::events
{
namespace
{

using testing::Each;
using testing::EndsWith;
using testing::HasSubstr;

Dictionary exclusiveCpus(std::uint64_t count)
{
    return {{"ExclusiveCpus", sdbus::Variant(count)}};
}

class CpuManagerTest : public EventsTest
{
  protected:
    void SetUp() override
    {
        EventsTest::SetUp();
        if (onlineCpuCount() < 2)
        {
            GTEST_SKIP() << "a slice and a shared pool need 2 CPUs, this machine has " << onlineCpuList();
        }
        std::ofstream(daemonOptions().configFile, std::ios::app) << "[CpuManager]\nPolicy=static\n";
    }

    // Every change the daemon made to the workloads, asked or repairs, is
    // in their history as a success, and none is failed now.
    void expectEveryChangeSucceeded(const std::vector<std::string>& workloads)
    {
        for (const auto& workload : workloads)
        {
            EXPECT_THAT(bus().history(workload), Each(EndsWith(" success"))) << workload;
            EXPECT_NE(entryOf<std::string>(bus().resourceStatus(workload), "UpdateState"), "failed") << workload;
        }
    }

    // Polls until the container's cpuset is `cpus`; false (printing the last
    // reading) after reactionTimeout.
    static bool waitForCpuset(const ScopedContainer& container, const std::string& cpus)
    {
        return waitForCpuset(container.cgroupPath(), cpus);
    }

    // The same by the container's cgroup, which a rename keeps.
    static bool waitForCpuset(const std::filesystem::path& cgroupPath, const std::string& cpus)
    {
        const auto deadline = std::chrono::steady_clock::now() + reactionTimeout;
        std::string read;
        while (std::chrono::steady_clock::now() < deadline)
        {
            read = cpusOf(cgroupPath);
            if (read == cpus)
            {
                return true;
            }
            std::this_thread::sleep_for(pollInterval);
        }
        std::cerr << cgroupPath << " runs on CPUs " << read << ", not " << cpus << "\n";
        return false;
    }
};

TEST_F(CpuManagerTest, ASliceIsItsHoldersAloneAndEveryOtherContainerLeavesIt)
{
    startDaemon();
    const auto other = runContainer("other");
    const auto web = runContainer("web");
    // Managed, with a cpuset of its own: every CPU.
    const auto db = runContainer("db");
    bus().update(db.name(), {{"AllowedCpus", sdbus::Variant(onlineCpuList())}});
    const std::uint64_t before = bus().cpuAllocatedMillis();

    const Dictionary status = bus().update(web.name(), exclusiveCpus(1));
    const auto desired = entryOf<Dictionary>(status, "Desired");
    const auto actual = entryOf<Dictionary>(status, "Actual");
    const std::string slice = entryOf<std::string>(desired, "AllowedCpus");
    ASSERT_TRUE(isOneOnlineCpu(slice)) << slice;
    const std::string shared = onlineCpusExcept(slice);
    EXPECT_EQ(entryOf<std::uint64_t>(desired, "CpuMillis"), noLimit);
    EXPECT_EQ(entryOf<std::uint64_t>(actual, "ExclusiveCpus"), 1u);
    EXPECT_EQ(entryOf<std::string>(actual, "AllowedCpus"), slice);

    // The holder runs on its slice without a quota, allocated one CPU.
    EXPECT_EQ(cpusOf(web.cgroupPath()), slice);
    EXPECT_EQ(readLimits(web.cgroupPath())->cpuMillis, noLimit);
    EXPECT_EQ(bus().cpuAllocatedMillis(), before + 1000);
    EXPECT_EQ(bus().managerString("ExclusiveCpuSet"), slice);
    EXPECT_EQ(bus().managerString("SharedCpus"), shared);

    // Every other container leaves it: one running before, one started
    // after, neither managed by resized, and one resized manages.
    EXPECT_TRUE(waitForCpuset(other, shared));
    EXPECT_TRUE(waitForCpuset(db, shared));
    const auto late = runContainer("late");
    EXPECT_TRUE(waitForCpuset(late, shared));

    // The shared pool never becomes empty; a slice decides its own CPUs
    // and quota; nothing changed by a refusal.
    const unsigned online = onlineCpuCount();
    EXPECT_EQ(errorOf([&] { bus().update(other.name(), exclusiveCpus(online - 1)); }),
              "io.resized1.Error.Infeasible: CPU manager: a slice of " + std::to_string(online - 1) +
                  " would leave the shared pool empty (" + std::to_string(online) + " CPUs online, 1 in other slices)");
    EXPECT_EQ(errorNameOf([&] {
                  bus().update(web.name(), {{"ExclusiveCpus", sdbus::Variant(std::uint64_t{1})},
                                            {"CpuMillis", sdbus::Variant(std::uint64_t{500})}});
              }),
              "io.resized1.Error.InvalidArgument");
    EXPECT_EQ(errorOf([&] { bus().update(other.name(), {{"AllowedCpus", sdbus::Variant(slice)}}); }),
              "io.resized1.Error.Infeasible: CPU manager: CPU " + slice + " is in the exclusive slice of " +
                  web.name() + "; the shared pool is " + shared);
    EXPECT_EQ(errorOf([&] { bus().update(web.name(), cpu(500)); }),
              "io.resized1.Error.Infeasible: CPU manager: " + web.name() + " holds the exclusive CPUs " + slice +
                  ", without a quota and on no other CPU; ExclusiveCpus=0 gives them back first");
    EXPECT_EQ(cpusOf(web.cgroupPath()), slice);
    EXPECT_EQ(bus().managerString("ExclusiveCpuSet"), slice);

    // kubelet's resource manager series: one slice given, one refused.
    const std::string metrics = bus().metrics();
    EXPECT_THAT(metrics, HasSubstr("\nresource_manager_allocations_total{resource_name=\"cpu\","
                                   "source=\"node\"} 1\n"));
    EXPECT_THAT(metrics, HasSubstr("\nresource_manager_allocation_errors_total{resource_name=\"cpu\","
                                   "source=\"node\"} 2\n"));
    EXPECT_THAT(metrics, HasSubstr("\nresource_manager_container_assignments{resource_name=\"cpu\","
                                   "assignment_type=\"node_exclusive\"} 1\n"));

    // Durable: a restarted daemon holds the same slice, and keeps the
    // others off it.
    stopDaemon();
    startDaemon();
    EXPECT_EQ(bus().managerString("ExclusiveCpuSet"), slice);
    EXPECT_EQ(cpusOf(web.cgroupPath()), slice);
    EXPECT_EQ(cpusOf(other.cgroupPath()), shared);

    // Given back, every CPU is shared again, and the others get back what
    // they had.
    bus().update(web.name(), exclusiveCpus(0));
    EXPECT_EQ(bus().managerString("ExclusiveCpuSet"), "");
    EXPECT_EQ(bus().managerString("SharedCpus"), onlineCpuList());
    EXPECT_TRUE(waitForCpuset(web, onlineCpuList()));
    EXPECT_TRUE(waitForCpuset(other, onlineCpuList()));
    EXPECT_TRUE(waitForCpuset(late, onlineCpuList()));
    EXPECT_TRUE(waitForCpuset(db, onlineCpuList()));
    EXPECT_EQ(bus().cpuAllocatedMillis(), before);
    // resized moved the cpusets itself: no drift.
    EXPECT_THAT(bus().metrics(), HasSubstr("\nresized_drift_total 0\n"));
}

TEST_F(CpuManagerTest, ASliceNeverTakesEveryCpuAndStaysWhileOtherLimitsChange)
{
    startDaemon();
    const auto web = runContainer("web");
    const std::string slice =
        entryOf<std::string>(entryOf<Dictionary>(bus().update(web.name(), exclusiveCpus(1)), "Desired"), "AllowedCpus");

    // Every CPU would leave nothing shared; the same count with another
    // limit keeps the CPUs.
    EXPECT_EQ(errorNameOf([&] { bus().update(web.name(), exclusiveCpus(onlineCpuCount())); }),
              "io.resized1.Error.Infeasible");
    EXPECT_EQ(errorOf([&] { bus().update(web.name(), {{"ExclusiveCpus", sdbus::Variant(std::uint64_t{1})},
                                                       {"MemoryMax", sdbus::Variant(std::uint64_t{256} << 20)}}); }),
              std::nullopt);
    EXPECT_EQ(cpusOf(web.cgroupPath()), slice);
    EXPECT_EQ(readLimits(web.cgroupPath())->memoryMax, std::uint64_t{256} << 20);
}

// A slice is its holder's desired state: it stays reserved while the
// container is stopped, and comes back on the cgroup of every new run, also
// of a container created again under the name.
TEST_F(CpuManagerTest, ASliceFollowsItsHolderThroughAStopAndARecreation)
{
    startDaemon();
    const auto other = runContainer("other");
    const auto web = runContainer("web");
    const std::string slice =
        entryOf<std::string>(entryOf<Dictionary>(bus().update(web.name(), exclusiveCpus(1)), "Desired"), "AllowedCpus");
    const std::string shared = onlineCpusExcept(slice);
    const std::uint64_t allocated = bus().cpuAllocatedMillis();

    podmanOrThrow({"stop", "--time", "0", web.name()});
    EXPECT_EQ(bus().managerString("ExclusiveCpuSet"), slice);
    EXPECT_EQ(bus().cpuAllocatedMillis(), allocated);
    EXPECT_TRUE(waitForCpuset(other, shared));

    podmanOrThrow({"start", web.name()});
    EXPECT_TRUE(waitForCpuset(web, slice));
    EXPECT_EQ(readLimits(web.cgroupPath())->cpuMillis, noLimit);

    const ScopedContainer again(podman(), web.name(), {"--replace"});
    EXPECT_TRUE(waitForCpuset(again, slice));
    EXPECT_TRUE(waitForSynchronized(again.name()));
    EXPECT_EQ(readLimits(again.cgroupPath())->cpuMillis, noLimit);
    EXPECT_EQ(bus().managerString("ExclusiveCpuSet"), slice);
    EXPECT_EQ(bus().cpuAllocatedMillis(), allocated);
    EXPECT_EQ(cpusOf(other.cgroupPath()), shared);
}

// A paused holder keeps its cgroup and so its slice; a holder renamed away
// leaves the slice with its name (the desired state is kept by name, for a
// re-creation), and the renamed container, which resized does not manage,
// is moved off it like any other.
TEST_F(CpuManagerTest, APausedHolderKeepsItsSliceARenamedOneLeavesIt)
{
    startDaemon();
    const auto web = runContainer("web");
    const std::string slice =
        entryOf<std::string>(entryOf<Dictionary>(bus().update(web.name(), exclusiveCpus(1)), "Desired"), "AllowedCpus");
    const std::string shared = onlineCpusExcept(slice);

    podmanOrThrow({"pause", web.name()});
    const auto late = runContainer("late");
    EXPECT_TRUE(waitForCpuset(late, shared));
    EXPECT_EQ(cpusOf(web.cgroupPath()), slice);
    podmanOrThrow({"unpause", web.name()});
    EXPECT_EQ(cpusOf(web.cgroupPath()), slice);

    const auto cgroupPath = web.cgroupPath();
    const std::string renamed = nameFor("renamed");
    podmanOrThrow({"rename", web.name(), renamed});
    EXPECT_TRUE(waitForCpuset(cgroupPath, shared));
    EXPECT_EQ(bus().managerString("ExclusiveCpuSet"), slice);
    podmanOrThrow({"rename", renamed, web.name()});
    EXPECT_TRUE(waitForCpuset(web, slice));
    EXPECT_TRUE(waitForSynchronized(web.name()));
}

TEST_F(CpuManagerTest, SwitchedToNoPolicyTheSlicesGoBackAtStartUp)
{
    startDaemon();
    const auto web = runContainer("web");
    const auto other = runContainer("other");
    const Dictionary status = bus().update(web.name(), {{"ExclusiveCpus", sdbus::Variant(std::uint64_t{1})},
                                                        {"MemoryMax", sdbus::Variant(std::uint64_t{256} << 20)}});
    const std::string slice = entryOf<std::string>(entryOf<Dictionary>(status, "Desired"), "AllowedCpus");
    ASSERT_TRUE(isOneOnlineCpu(slice)) << slice;
    ASSERT_TRUE(waitForCpuset(web, slice));
    ASSERT_TRUE(waitForCpuset(other, onlineCpusExcept(slice)));
    stopDaemon();

    std::ofstream(daemonOptions().configFile) << "[Sync]\nIntervalSec=3600\n";
    startDaemon();

    EXPECT_TRUE(waitForCpuset(web, onlineCpuList()));
    EXPECT_TRUE(waitForCpuset(other, onlineCpuList())) << "a container the slice narrowed gets its own cpuset back";
    EXPECT_TRUE(waitForSynchronized(web.name()));
    const auto desired = entryOf<Dictionary>(bus().resourceStatus(web.name()), "Desired");
    EXPECT_EQ(entryOf<std::uint64_t>(desired, "ExclusiveCpus"), 0u);
    EXPECT_EQ(readLimits(web.cgroupPath())->memoryMax, std::uint64_t{256} << 20);
    EXPECT_EQ(bus().managerString("CpuManagerPolicy"), "none");
}

// With the container scope a pod holds no bubble; its members take slices
// from the node like any container, and everything else in the pod, its
// infra container too, runs on the node's shared pool.
TEST_F(CpuManagerTest, APodHoldsNoBubbleWithTheContainerScope)
{
    startDaemon();
    const ScopedPod pod(podman(), nameFor("shop"), ScopedPod::Infra::with);
    const ScopedContainer cart(podman(), nameFor("cart"), {"--pod", pod.name()});
    const ScopedContainer till(podman(), nameFor("till"), {"--pod", pod.name()});

    EXPECT_EQ(errorOf([&] { bus().update("pod:" + pod.name(), exclusiveCpus(1)); }),
              "io.resized1.Error.Infeasible: CPU manager: a pod's exclusive CPUs are a bubble for its members, which "
              "needs [CpuManager] TopologyScope=pod; with TopologyScope=container its members take slices "
              "themselves");
    EXPECT_EQ(bus().managerString("ExclusiveCpuSet"), "");

    const std::string slice = entryOf<std::string>(
        entryOf<Dictionary>(bus().update(cart.name(), exclusiveCpus(1)), "Desired"), "AllowedCpus");
    const std::string shared = onlineCpusExcept(slice);
    EXPECT_EQ(cpusOf(cart.cgroupPath()), slice);
    EXPECT_TRUE(waitForCpuset(till, shared));
    const std::string infra = podman().inspect(pod.name(), "{{.InfraContainerID}}");
    EXPECT_TRUE(waitForCpuset(podman().cgroupPath(infra), shared)) << "the infra container";
}

// TopologyScope=pod: a pod's ExclusiveCpus is a bubble. The tests give a pod
// a bubble of one, which its members' own slices would empty, so these are
// refused here; the VM tier gives them out of a bubble of two.
class PodScopeTest : public CpuManagerTest
{
  protected:
    void SetUp() override
    {
        CpuManagerTest::SetUp();
        if (IsSkipped())
        {
            return;
        }
        std::ofstream(daemonOptions().configFile, std::ios::app) << "TopologyScope=pod\n";
    }

    // Every cgroup inside the pod's: its infra container's, its members',
    // and conmon's with Podman's cgroupfs manager (systemd's keeps conmon
    // out of the pod).
    static std::vector<std::filesystem::path> insidePod(const ScopedPod& pod)
    {
        std::vector<std::filesystem::path> inside;
        for (const auto& entry : std::filesystem::directory_iterator(cgroupFolder(pod.cgroupPath(), "cpuset")))
        {
            if (entry.is_directory())
            {
                inside.push_back(pod.cgroupPath() / entry.path().filename());
            }
        }
        return inside;
    }
};

TEST_F(PodScopeTest, ABubbleHoldsAllInItsPodOnly)
{
    startDaemon();
    const ScopedPod pod(podman(), nameFor("shop"), ScopedPod::Infra::with);
    const std::string podWorkload = "pod:" + pod.name();
    const ScopedContainer cart(podman(), nameFor("cart"), {"--pod", pod.name()});
    const ScopedContainer till(podman(), nameFor("till"), {"--pod", pod.name()});
    const auto other = runContainer("other");
    bus().update(cart.name(), cpu(300));
    const std::uint64_t before = bus().cpuAllocatedMillis();

    const Dictionary status = bus().update(podWorkload, exclusiveCpus(1));
    const std::string bubble = entryOf<std::string>(entryOf<Dictionary>(status, "Desired"), "AllowedCpus");
    ASSERT_TRUE(isOneOnlineCpu(bubble)) << bubble;
    const std::string shared = onlineCpusExcept(bubble);

    // The pod's cgroup is the bubble, without a quota, and so is every
    // cgroup inside it (cgroup v1 refuses a parent's cpuset that a child's
    // does not fit in; v2 narrows a child's to its parent's); a member keeps
    // its quota.
    EXPECT_EQ(cpusOf(pod.cgroupPath()), bubble);
    EXPECT_EQ(readLimits(pod.cgroupPath())->cpuMillis, noLimit);
    const auto inside = insidePod(pod);
    EXPECT_GE(inside.size(), 3u) << "the infra container, cart and till";
    for (const auto& child : inside)
    {
        EXPECT_EQ(cpusOf(child), bubble) << child;
    }
    EXPECT_EQ(readLimits(cart.cgroupPath())->cpuMillis, 300u);

    // The node allocates the bubble, the member's 300m inside it, and the
    // rest of the node runs off it.
    EXPECT_EQ(bus().cpuAllocatedMillis(), before - 300 + 1000);
    EXPECT_EQ(bus().managerString("ExclusiveCpuSet"), bubble);
    EXPECT_EQ(bus().managerString("SharedCpus"), shared);
    EXPECT_TRUE(waitForCpuset(other, shared));
    const auto late = runContainer("late");
    EXPECT_TRUE(waitForCpuset(late, shared));
    const ScopedContainer newMember(podman(), nameFor("new"), {"--pod", pod.name()});
    EXPECT_TRUE(waitForCpuset(newMember, bubble));

    // Neither shared pool is ever emptied; nothing changed by a refusal.
    EXPECT_EQ(errorOf([&] { bus().update(cart.name(), exclusiveCpus(1)); }),
              "io.resized1.Error.Infeasible: CPU manager: a slice of 1 would leave the shared pool of pod " +
                  pod.name() + " empty (its bubble " + bubble +
                  ", 0 CPUs in other members' slices): its infra container and other members run there");
    const unsigned online = onlineCpuCount();
    EXPECT_EQ(errorOf([&] { bus().update(podWorkload, exclusiveCpus(online)); }),
              "io.resized1.Error.Infeasible: CPU manager: a slice of " + std::to_string(online) +
                  " would leave the shared pool empty (" + std::to_string(online) + " CPUs online, 0 in other slices)");
    EXPECT_EQ(cpusOf(pod.cgroupPath()), bubble);
    EXPECT_EQ(readLimits(cart.cgroupPath())->cpuMillis, 300u);

    // kubelet's source: the bubble is drawn from the node, a member's slice
    // from its pod's bubble.
    const std::string counted = bus().metrics();
    EXPECT_THAT(counted, HasSubstr("\nresource_manager_allocations_total{resource_name=\"cpu\",source=\"node\"} 1\n"));
    EXPECT_THAT(counted, HasSubstr("\nresource_manager_allocations_total{resource_name=\"cpu\",source=\"pod\"} 0\n"));
    EXPECT_THAT(counted,
                HasSubstr("\nresource_manager_allocation_errors_total{resource_name=\"cpu\",source=\"node\"} 1\n"));
    EXPECT_THAT(counted,
                HasSubstr("\nresource_manager_allocation_errors_total{resource_name=\"cpu\",source=\"pod\"} 1\n"));

    // The bubble stays while a member restarts, and across a restart of
    // the daemon, whose first pass counts the pod's four containers on the
    // pod's shared pool.
    podmanOrThrow({"restart", "--time", "0", till.name()});
    EXPECT_TRUE(waitForCpuset(till, bubble));
    stopDaemon();
    startDaemon();
    EXPECT_EQ(bus().managerString("ExclusiveCpuSet"), bubble);
    EXPECT_EQ(cpusOf(pod.cgroupPath()), bubble);
    EXPECT_EQ(bus().cpuAllocatedMillis(), before - 300 + 1000);
    const std::string metrics = bus().metrics();
    EXPECT_THAT(metrics, HasSubstr("\nresource_manager_container_assignments{resource_name=\"cpu\","
                                   "assignment_type=\"pod_shared\"} 4\n"));
    EXPECT_THAT(metrics, HasSubstr("\nresource_manager_container_assignments{resource_name=\"cpu\","
                                   "assignment_type=\"node_exclusive\"} 0\n"));

    // Given back, the pod and all inside it run on every CPU again.
    bus().update(podWorkload, exclusiveCpus(0));
    EXPECT_EQ(bus().managerString("ExclusiveCpuSet"), "");
    EXPECT_EQ(cpusOf(pod.cgroupPath()), onlineCpuList());
    for (const auto& child : insidePod(pod))
    {
        EXPECT_TRUE(waitForCpuset(child, onlineCpuList()));
    }
    EXPECT_TRUE(waitForCpuset(other, onlineCpuList()));
    EXPECT_TRUE(waitForCpuset(late, onlineCpuList()));
    EXPECT_EQ(bus().cpuAllocatedMillis(), before);
    EXPECT_THAT(bus().metrics(), HasSubstr("\nresized_drift_total 0\n"));
}

// Started again with the container scope, the daemon gives every bubble
// back, as it gives slices back without the static policy: the pod and
// everything in it run on every CPU again.
TEST_F(PodScopeTest, TheContainerScopeGivesBubblesBack)
{
    startDaemon();
    const ScopedPod pod(podman(), nameFor("shop"), ScopedPod::Infra::with);
    const ScopedContainer cart(podman(), nameFor("cart"), {"--pod", pod.name()});
    const std::string bubble = entryOf<std::string>(
        entryOf<Dictionary>(bus().update("pod:" + pod.name(), exclusiveCpus(1)), "Desired"), "AllowedCpus");
    ASSERT_EQ(cpusOf(cart.cgroupPath()), bubble);
    stopDaemon();

    std::ofstream(daemonOptions().configFile) << "[Sync]\nIntervalSec=3600\n[CpuManager]\nPolicy=static\n";
    startDaemon();

    EXPECT_TRUE(waitForCpuset(pod.cgroupPath(), onlineCpuList()));
    EXPECT_TRUE(waitForCpuset(cart, onlineCpuList()));
    EXPECT_TRUE(waitForSynchronized("pod:" + pod.name()));
    EXPECT_EQ(bus().managerString("ExclusiveCpuSet"), "");
    const auto desired = entryOf<Dictionary>(bus().resourceStatus("pod:" + pod.name()), "Desired");
    EXPECT_EQ(entryOf<std::uint64_t>(desired, "ExclusiveCpus"), 0u);

    // The pod's desired state still names its cpuset (all CPUs): a member's
    // slice of the node stays inside it, as cgroup v1 demands of a parent.
    const std::string slice = entryOf<std::string>(
        entryOf<Dictionary>(bus().update(cart.name(), exclusiveCpus(1)), "Desired"), "AllowedCpus");
    bus().reconcile("pod:" + pod.name());
    EXPECT_TRUE(waitForSynchronized("pod:" + pod.name()));
    EXPECT_EQ(cpusOf(pod.cgroupPath()), onlineCpuList());
    EXPECT_EQ(cpusOf(cart.cgroupPath()), slice);
    expectEveryChangeSucceeded({"pod:" + pod.name(), cart.name()});
}

// Started again without the static policy, a bubble goes back like a slice,
// and the pod's containers with it: nothing keeps a cpuset the policy made.
TEST_F(PodScopeTest, SwitchedToNoPolicyABubbleAndItsPodGoBack)
{
    startDaemon();
    const ScopedPod pod(podman(), nameFor("shop"), ScopedPod::Infra::with);
    const ScopedContainer cart(podman(), nameFor("cart"), {"--pod", pod.name()});
    const auto other = runContainer("other");
    const std::string bubble = entryOf<std::string>(
        entryOf<Dictionary>(bus().update("pod:" + pod.name(), exclusiveCpus(1)), "Desired"), "AllowedCpus");
    ASSERT_EQ(cpusOf(cart.cgroupPath()), bubble);
    ASSERT_TRUE(waitForCpuset(other, onlineCpusExcept(bubble)));
    stopDaemon();

    std::ofstream(daemonOptions().configFile) << "[Sync]\nIntervalSec=3600\n";
    startDaemon();

    EXPECT_TRUE(waitForCpuset(pod.cgroupPath(), onlineCpuList()));
    for (const auto& inside : insidePod(pod))
    {
        EXPECT_TRUE(waitForCpuset(inside, onlineCpuList())) << inside;
    }
    EXPECT_TRUE(waitForCpuset(other, onlineCpuList()));
    EXPECT_TRUE(waitForSynchronized("pod:" + pod.name()));
    EXPECT_EQ(bus().managerString("CpuManagerPolicy"), "none");
    expectEveryChangeSucceeded({"pod:" + pod.name(), cart.name()});
}

// The bubble goes back to the node with the pod: removed (without a grace
// here), the pod's CPUs are shared again and the rest of the node runs on
// them.
TEST_F(PodScopeTest, ARemovedPodsBubbleGoesBackToTheNode)
{
    std::ofstream(daemonOptions().configFile, std::ios::app) << "[Workloads]\nRemovedGraceSec=0\n";
    startDaemon();
    const auto other = runContainer("other");
    std::optional<ScopedPod> pod(std::in_place, podman(), nameFor("shop"), ScopedPod::Infra::with);
    std::optional<ScopedContainer> cart(std::in_place, podman(), nameFor("cart"),
                                        std::vector<std::string>{"--pod", pod->name()});
    const std::string bubble = entryOf<std::string>(
        entryOf<Dictionary>(bus().update("pod:" + pod->name(), exclusiveCpus(1)), "Desired"), "AllowedCpus");
    EXPECT_TRUE(waitForCpuset(other, onlineCpusExcept(bubble)));
    const std::uint64_t allocated = bus().cpuAllocatedMillis();

    cart.reset();
    pod.reset();
    EXPECT_TRUE(waitUntil([&] { return bus().managerString("ExclusiveCpuSet").empty(); }, reactionTimeout));
    EXPECT_TRUE(waitForCpuset(other, onlineCpuList()));
    EXPECT_EQ(bus().managerString("SharedCpus"), onlineCpuList());
    EXPECT_EQ(bus().cpuAllocatedMillis(), allocated - 1000);
}

// Forgotten, a pod gives its bubble back to the node while its cgroup keeps
// what it runs on (Forget leaves limits as they are): the pod's containers
// stay inside it, where cgroup v1 keeps them, and nothing else is refused.
TEST_F(PodScopeTest, AForgottenPodsBubbleGoesBackToTheNode)
{
    startDaemon();
    const ScopedPod pod(podman(), nameFor("shop"), ScopedPod::Infra::with);
    const ScopedContainer cart(podman(), nameFor("cart"), {"--pod", pod.name()});
    const auto other = runContainer("other");
    const std::uint64_t before = bus().cpuAllocatedMillis();
    const std::string bubble = entryOf<std::string>(
        entryOf<Dictionary>(bus().update("pod:" + pod.name(), exclusiveCpus(1)), "Desired"), "AllowedCpus");
    EXPECT_TRUE(waitForCpuset(other, onlineCpusExcept(bubble)));

    // design.md §1c: the pod and its members are back on the node's shared
    // pool before the bubble's CPUs are free for anyone else.
    bus().forget("pod:" + pod.name());
    EXPECT_EQ(bus().managerString("ExclusiveCpuSet"), "");
    EXPECT_EQ(cpusOf(pod.cgroupPath()), onlineCpuList());
    EXPECT_EQ(cpusOf(cart.cgroupPath()), onlineCpuList());
    EXPECT_TRUE(waitForCpuset(other, onlineCpuList()));
    EXPECT_EQ(bus().cpuAllocatedMillis(), before) << "a pod counts at what its cgroup holds: no quota";

    // A slice of the node's now, whichever CPU it takes: the forgotten
    // pod's container leaves it like any other, also after a restart.
    const std::string slice = entryOf<std::string>(
        entryOf<Dictionary>(bus().update(other.name(), exclusiveCpus(1)), "Desired"), "AllowedCpus");
    EXPECT_TRUE(waitForCpuset(cart, onlineCpusExcept(slice)));
    stopDaemon();
    startDaemon();
    EXPECT_EQ(bus().managerString("ExclusiveCpuSet"), slice);
    EXPECT_TRUE(waitForCpuset(cart, onlineCpusExcept(slice)));
    // A cpuset the kernel refuses changes nothing it holds: the daemon's
    // warnings are where a refused write shows, found by their level, not
    // by any one wording.
    const std::string log = daemon().wholeLog();
    ASSERT_THAT(log, HasSubstr("] [info] ")) << "the log has no level tags where this test reads them";
    EXPECT_THAT(log, testing::Not(HasSubstr("] [warning] ")));
}

using NoCpuManagerTest = EventsTest;

TEST_F(NoCpuManagerTest, WithoutTheStaticPolicyNoSliceIsGiven)
{
    startDaemon();
    const auto web = runContainer("web");

    EXPECT_EQ(errorOf([&] { bus().update(web.name(), exclusiveCpus(1)); }),
              "io.resized1.Error.Infeasible: CPU manager: the policy is \"none\": exclusive CPUs need "
              "[CpuManager] Policy=static");
    EXPECT_EQ(bus().managerString("CpuManagerPolicy"), "none");
    EXPECT_EQ(bus().managerString("ExclusiveCpuSet"), "");
}

} // namespace
} // namespace resized::integration::events
