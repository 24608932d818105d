// Where two features meet (design.md §1c): a Forget and a plan, a slice and
// a plan, a failed change and a pool's budget, Force and a budget, the
// autoscaler and the deferred queue, a status and what the cgroup holds.
// Each test is a case that broke while every feature worked on its own; the
// invariants are checked at the step where they broke, not only at the end.

#include "cpu_list.h"
#include "daemon_test.h"

#include "support/cgroup_v1.h"
#include "support/host_cpus.h"
#include "support/scoped_pod.h"
#include "support/wait.h"

#include <gtest/gtest.h>

#include <signal.h>

#include <chrono>
#include <fstream>
#include <future>
#include <optional>
#include <string>

namespace resized::integration
{
namespace
{

using namespace std::chrono_literals;
using sdbus::Variant;

constexpr auto bound = 30s;
const std::string poolLabel = "--label=io.resized1.pool=batch";

unsigned countCpus(const std::string& list)
{
    return static_cast<unsigned>(parseCpuList(list).size());
}

class SeamsTest : public DaemonTest
{
  protected:
    std::string planState(const sdbus::ObjectPath& plan)
    {
        return entryOf<std::string>(client().planProperties(plan), "State");
    }

    bool planRuns(const sdbus::ObjectPath& plan)
    {
        return waitUntil([&] { return planState(plan) == "running"; }, bound);
    }

    // A container whose 200 MiB of anonymous memory no shrink below it can
    // reclaim on a host without swap: a change lowering it waits for the
    // reclaim timeout and fails, all of it undone. Check holdsItsMemory()
    // before counting on it.
    ScopedContainer unshrinkable(const std::string& suffix)
    {
        return ScopedContainer::holdingMemory(podman(), containerName(suffix), 200, {"--memory-swappiness=0"});
    }

    static bool holdsItsMemory(const ScopedContainer& container)
    {
        return CgroupV1(container.cgroupPath()).waitForMemoryUsageAbove(150 * mebibyte, 60s);
    }

    // Restarts the daemon with the CPU manager's static policy and no CPU
    // kept out of the node's capacity: room for a slice on every CPU but
    // the one the shared pool keeps, so that only the CPU manager refuses.
    void withStaticCpuManager(const std::string& reservedCpus = "", const std::string& reservedCpu = "0")
    {
        writeStaticCpuManagerConfig(reservedCpus, reservedCpu);
        daemon().stop();
        startDaemon();
    }

    void writeStaticCpuManagerConfig(const std::string& reservedCpus, const std::string& reservedCpu = "0")
    {
        std::ofstream(daemonOptions().configFile)
            << "[Node]\nReservedCPU=" << reservedCpu << "\nReservedMemory=" << reservedMemory / mebibyte << "Mi\n"
            << "[Sync]\nIntervalSec=3600\n"
            << "[CpuManager]\nPolicy=static\n"
            << (reservedCpus.empty() ? "" : "ReservedCpus=" + reservedCpus + "\n");
    }

    std::string exclusiveCpuSet() { return client().managerProperty("ExclusiveCpuSet").get<std::string>(); }

    bool isManaged(const std::string& name)
    {
        for (const auto& entry : client().listWorkloads())
        {
            if (entry.get<0>() == name)
            {
                return true;
            }
        }
        return false;
    }
};

// A Forget of a workload that a running plan changes waits for the plan to
// end, as an update would: it never drops a reservation from under the
// plan, and the plan never brings back a workload that was forgotten.
TEST_F(SeamsTest, AForgetDuringAPlanWaitsForThePlanToEnd)
{
    const auto web = runContainer("web");
    client().updateResources(web.name(), ResourceValues{.cpuMillis = 300});
    const auto memory = unshrinkable("m");
    ASSERT_TRUE(holdsItsMemory(memory));
    const auto plan = client().submitPlan(
        {{memory.name(), ResourceValues{.memoryMax = 64 * mebibyte}.toDictionary()},
         {web.name(), ResourceValues{.cpuMillis = 500}.toDictionary()}});
    ASSERT_TRUE(planRuns(plan));

    auto forgotten = std::async(std::launch::async, [name = web.name()] {
        ResizedClient ownClient;
        return errorOf([&] { ownClient.forget(name); });
    });
    // While the plan runs, its reservation holds: the node counts web's
    // 300m and the 200m more it is being raised by.
    EXPECT_EQ(client().managerNumber("CpuAllocatedMillis") + client().managerNumber("CpuReservedMillis"), 500U);

    const auto error = forgotten.get();
    ASSERT_FALSE(error) << error->getName() << ": " << error->getMessage();
    // The Forget answered after the plan ended, and nothing brought web back.
    EXPECT_EQ(planState(plan), "failed");
    EXPECT_FALSE(isManaged(web.name()));
    EXPECT_EQ(client().managerNumber("CpuReservedMillis"), 0U);
    EXPECT_EQ(CgroupLimits::read(web.cgroupPath()).cpuMillis(), 300U);
    EXPECT_EQ(client().managerNumber("CpuAllocatedMillis"), 300U);
}

// A lowering that fails changes nothing: not the pool the change would have
// joined, nor the budget a successful lowering would have used.
TEST_F(SeamsTest, AFailedLoweringConsumesNoDisruptionAndJoinsNoPool)
{
    const Dictionary budget{{"Value", Variant("1")},
                            {"PeriodUSec", Variant(std::uint64_t{3'600'000'000})}};
    client().setPool("batch", {{"Budgets", Variant(std::vector<Dictionary>{budget})}});
    const sdbus::ObjectPath batch("/io/resized1/pool/batch");
    const auto memory = unshrinkable("m");
    ASSERT_TRUE(holdsItsMemory(memory));
    client().updateResources(memory.name(), ResourceValues{.memoryMax = 512 * mebibyte});
    ASSERT_EQ(entryOf<std::uint32_t>(client().poolProperties(batch), "AllowedDisruptions"), 1U);

    const auto refused = errorOf([&] {
        client().updateResources(memory.name(), ResourceValues{.memoryMax = 64 * mebibyte},
                                 {{"Pool", Variant("batch")}, {"ReclaimTimeoutUSec", Variant(std::uint64_t{500'000})}});
    });

    ASSERT_TRUE(refused);
    EXPECT_EQ(refused->getName(), "io.resized1.Error.MemoryInUse");
    EXPECT_EQ(entryOf<std::uint32_t>(client().poolProperties(batch), "AllowedDisruptions"), 1U);
    EXPECT_EQ(entryOf<std::string>(client().getResourceStatus(memory.name()), "Pool"), "");
    EXPECT_TRUE(entryOf<std::vector<std::string>>(client().poolProperties(batch), "Members").empty());
    EXPECT_EQ(CgroupLimits::read(memory.cgroupPath()).memoryLimit, 512 * mebibyte);
}

// Force on a pod lowers its members as the caller's change: a budget that
// allows no manual disruption refuses it, where a plan's reason would pass.
TEST_F(SeamsTest, ForceOnAPodLowersItsMembersAsTheCallersChange)
{
    const Dictionary noManualDisruption{{"Value", Variant("0")},
                                        {"Reasons", Variant(std::vector<std::string>{"manual"})}};
    client().setPool("batch", {{"Budgets", Variant(std::vector<Dictionary>{noManualDisruption})}});
    const ScopedPod pod(podman(), containerName("shop"), ScopedPod::Infra::with);
    const std::string podWorkload = "pod:" + pod.name();
    const auto cart = runContainer("cart", {"--pod", pod.name(), poolLabel, "--cpus=0.8"});
    // Counted in its pod from its start event on.
    ASSERT_TRUE(daemon().waitForStartEvent(cart.name()));
    client().updateResources(podWorkload, ResourceValues{.cpuMillis = 1000});

    const auto refused = errorOf([&] {
        client().updateResources(podWorkload, ResourceValues{.cpuMillis = 500}, {{"Force", Variant(true)}});
    });

    ASSERT_TRUE(refused);
    EXPECT_EQ(refused->getName(), "io.resized1.Error.BudgetExhausted") << refused->getMessage();
    EXPECT_EQ(CgroupLimits::read(cart.cgroupPath()).cpuMillis(), 800U);
    EXPECT_EQ(CgroupLimits::read(pod.cgroupPath()).cpuMillis(), 1000U);
}

// The autoscaler's growth that waits for capacity goes with its policy: it
// is never applied after the policy was removed.
TEST_F(SeamsTest, RemovingAnAutoscalePolicyWithdrawsItsDeferredGrowth)
{
    const ScopedContainer busy(podman(), containerName("busy"), {},
                               {"sh", "-c", "trap 'exit 0' TERM; while :; do :; done"});
    client().updateResources(busy.name(), ResourceValues{.cpuMillis = 100});
    const auto hog = runContainer("hog");
    client().updateResources(hog.name(), ResourceValues{.cpuMillis = client().managerNumber("CpuAvailableMillis")});
    client().setAutoscalePolicy(busy.name(), {{"CpuTargetUtilization", Variant(std::uint32_t{50})},
                                              {"CpuMaxMillis", Variant(std::uint64_t{400})},
                                              {"IntervalUSec", Variant(std::uint64_t{500'000})}});
    ASSERT_TRUE(waitUntil(
        [&] { return entryOf<std::string>(client().getResourceStatus(busy.name()), "UpdateState") == "deferred"; },
        bound));

    client().removeAutoscalePolicy(busy.name());
    client().updateResources(hog.name(), ResourceValues{.cpuMillis = 100});
    // A pass of the deferred queue follows every change that frees room.
    client().reconcile("");

    const Dictionary status = client().getResourceStatus(busy.name());
    EXPECT_NE(entryOf<std::string>(status, "UpdateState"), "deferred");
    EXPECT_EQ(CgroupLimits::read(busy.cgroupPath()).cpuMillis(), 100U);
    for (const auto& entry : client().getHistory(busy.name(), 0))
    {
        EXPECT_FALSE(entryOf<std::string>(entry, "Actor") == "autoscale" &&
                     entryOf<std::string>(entry, "Result") == "success");
    }
}

// A status tells what is there now: drift as soon as it is read, and the
// run state of a stopped or removed container.
TEST_F(SeamsTest, AStatusShowsTheRunStateAndTheDriftReadNow)
{
    std::optional<ScopedContainer> web(std::in_place, podman(), containerName("web"));
    const std::string name = web->name();
    // Until the daemon has handled the start, it may still repair the drift
    // this test makes on purpose.
    ASSERT_TRUE(daemon().waitForStartEvent(name));
    client().updateResources(name, ResourceValues{.cpuMillis = 300});
    EXPECT_EQ(entryOf<std::string>(client().getResourceStatus(name), "RunState"), "running");
    EXPECT_EQ(entryOf<std::string>(client().getResourceStatus(name), "SyncState"), "synchronized");

    ASSERT_TRUE(podman().run({"update", "--cpus=0.7", name}).succeeded());
    Dictionary status = client().getResourceStatus(name);
    EXPECT_EQ(entryOf<std::string>(status, "SyncState"), "drift_detected");
    EXPECT_EQ(ResourceValues::fromDictionary(entryOf<Dictionary>(status, "Actual")).cpuMillis, 700U);

    ASSERT_TRUE(podman().run({"stop", "-t", "0", name}).succeeded());
    ASSERT_TRUE(waitUntil([&] { return entryOf<std::string>(client().getResourceStatus(name), "RunState") == "stopped"; },
                          bound));
    EXPECT_EQ(entryOf<std::string>(client().getResourceStatus(name), "CgroupPath"), "");
    web.reset();
    ASSERT_TRUE(waitUntil([&] { return entryOf<std::string>(client().getResourceStatus(name), "RunState") == "removed"; },
                          bound));
}

// A slice counts from its admission: while a plan that gives one waits for
// a decrease before it, no other workload is given those CPUs.
TEST_F(SeamsTest, ASliceAPlanReservedIsNotGivenToAnotherWhileThePlanRuns)
{
    const unsigned cpus = countCpus(onlineCpuList());
    ASSERT_GE(cpus, 2U) << "the CPU manager needs a shared pool besides a slice";
    withStaticCpuManager();
    const auto a = runContainer("a");
    const auto b = runContainer("b");
    const auto memory = unshrinkable("m");
    ASSERT_TRUE(holdsItsMemory(memory));
    // Every CPU but one, the least the shared pool keeps: a second slice of
    // it would leave the shared pool empty, or take the first one's CPUs.
    const std::uint64_t slice = cpus - 1;

    const auto plan = client().submitPlan(
        {{memory.name(), ResourceValues{.memoryMax = 64 * mebibyte}.toDictionary()},
         {a.name(), {{"ExclusiveCpus", Variant(slice)}}}});
    ASSERT_TRUE(planRuns(plan));
    const auto refused = errorOf([&] { client().updateResources(b.name(), {{"ExclusiveCpus", Variant(slice)}}); });

    ASSERT_TRUE(refused);
    EXPECT_EQ(refused->getName(), "io.resized1.Error.Infeasible") << refused->getMessage();
    EXPECT_TRUE(waitUntil([&] { return planState(plan) == "failed"; }, bound));
    // Undone, the plan's slice is free: now b may have it.
    client().updateResources(b.name(), {{"ExclusiveCpus", Variant(slice)}});
    EXPECT_EQ(countCpus(exclusiveCpuSet()), slice);
}

// A holder forgotten gives its slice back first: its CPUs are never free
// while its cgroup still runs on them alone.
TEST_F(SeamsTest, ForgettingASliceHolderGivesTheSliceBackFirst)
{
    ASSERT_GE(countCpus(onlineCpuList()), 2U) << "the CPU manager needs a shared pool besides a slice";
    withStaticCpuManager();
    const auto holder = runContainer("holder");
    const std::string everyCpu = CgroupV1(holder.cgroupPath()).read("cpuset", "cpuset.cpus");
    client().updateResources(holder.name(), {{"ExclusiveCpus", Variant(std::uint64_t{1})}});
    ASSERT_EQ(countCpus(exclusiveCpuSet()), 1U);

    client().forget(holder.name());

    EXPECT_EQ(exclusiveCpuSet(), "");
    EXPECT_FALSE(isManaged(holder.name()));
    EXPECT_EQ(CgroupV1(holder.cgroupPath()).read("cpuset", "cpuset.cpus"), everyCpu);
    const auto history = client().getHistory(holder.name(), 2);
    ASSERT_EQ(history.size(), 2U);
    EXPECT_EQ(entryOf<std::string>(history[0], "Operation"), "forget");
    EXPECT_EQ(ResourceValues::fromDictionary(entryOf<Dictionary>(history[1], "Request")).exclusiveCpus, 0U);
}

// A slice given to a stopped container is kept free of the others from its
// admission: they leave it at once, not when its holder starts.
TEST_F(SeamsTest, ASliceIsKeptFreeOfTheOthersFromItsAdmission)
{
    ASSERT_GE(countCpus(onlineCpuList()), 2U) << "the CPU manager needs a shared pool besides a slice";
    withStaticCpuManager();
    const auto other = runContainer("other");
    const auto holder = runContainer("holder");
    ASSERT_TRUE(podman().run({"stop", "-t", "0", holder.name()}).succeeded());

    const Dictionary status = client().updateResources(holder.name(), {{"ExclusiveCpus", Variant(std::uint64_t{1})}});

    EXPECT_EQ(entryOf<std::string>(status, "UpdateState"), "pending");
    const auto slice = parseCpuList(exclusiveCpuSet());
    ASSERT_EQ(slice.size(), 1U);
    const auto otherCpus = [&] { return parseCpuList(CgroupV1(other.cgroupPath()).read("cpuset", "cpuset.cpus")); };
    EXPECT_TRUE(waitUntil([&] { return !otherCpus().contains(*slice.begin()); }, bound))
        << other.name() << " still runs on the slice's CPU " << *slice.begin();
}

// The others leave a slice in the change set that gives it (design.md §1c),
// not in a pass after it: when UpdateResources answers, no other container
// runs on the slice's CPUs.
TEST_F(SeamsTest, TheOthersHaveLeftASliceWhenItsChangeAnswers)
{
    ASSERT_GE(countCpus(onlineCpuList()), 2U) << "the CPU manager needs a shared pool besides a slice";
    const auto other = runContainer("other");
    const auto holder = runContainer("holder");
    // Both known to the daemon from its start-up pass.
    withStaticCpuManager();

    const Dictionary status = client().updateResources(holder.name(), {{"ExclusiveCpus", Variant(std::uint64_t{1})}});

    const auto slice = parseCpuList(entryOf<std::string>(entryOf<Dictionary>(status, "Actual"), "AllowedCpus"));
    ASSERT_EQ(slice.size(), 1U);
    const auto otherCpus = parseCpuList(CgroupV1(other.cgroupPath()).read("cpuset", "cpuset.cpus"));
    EXPECT_FALSE(otherCpus.contains(*slice.begin()))
        << other.name() << " still runs on the slice's CPU " << *slice.begin();
}

// An autoscale CPU target on a slice holder sizes the slice in whole CPUs
// (design.md §1c): idle, the holder keeps the one CPU it holds, and no
// quota the CPU manager would refuse is ever asked for.
TEST_F(SeamsTest, AnAutoscaledSliceHolderKeepsItsSliceInWholeCpus)
{
    ASSERT_GE(countCpus(onlineCpuList()), 2U) << "the CPU manager needs a shared pool besides a slice";
    withStaticCpuManager();
    const auto holder = runContainer("holder");
    client().updateResources(holder.name(), {{"ExclusiveCpus", Variant(std::uint64_t{1})}});
    const std::string slice = exclusiveCpuSet();
    client().setAutoscalePolicy(holder.name(), {{"CpuTargetUtilization", Variant(std::uint32_t{50})},
                                                {"IntervalUSec", Variant(std::uint64_t{100'000})}});
    const auto autoscaleStatus = [&] {
        return entryOf<Dictionary>(client().getResourceStatus(holder.name()), "AutoscaleStatus");
    };

    // Decided: a CPU rate takes two samples.
    ASSERT_TRUE(waitUntil([&] { return autoscaleStatus().contains("CpuRecommendationMillis"); }, bound));

    const Dictionary status = client().getResourceStatus(holder.name());
    EXPECT_EQ(entryOf<std::string>(status, "UpdateState"), "success") << entryOf<std::string>(status, "Message");
    EXPECT_EQ(exclusiveCpuSet(), slice);
    for (const auto& entry : client().getHistory(holder.name(), 0))
    {
        EXPECT_NE(entryOf<std::string>(entry, "Actor"), "autoscale") << entryOf<std::string>(entry, "Message");
    }
}

// The autoscaler's first limit on a workload without one lowers its limit
// and still asks the node for more than it counted: short of room, it waits
// as one deferred change rather than being refused at every interval.
TEST_F(SeamsTest, AnAutoscalersFirstLimitThatDoesNotFitWaits)
{
    const auto unlimited = runContainer("unlimited");
    const auto hog = runContainer("hog");
    client().updateResources(hog.name(), ResourceValues{.cpuMillis = cpuCapacity()});
    client().setAutoscalePolicy(unlimited.name(), {{"CpuTargetUtilization", Variant(std::uint32_t{50})},
                                                   {"IntervalUSec", Variant(std::uint64_t{100'000})}});

    ASSERT_TRUE(waitUntil(
        [&] {
            const auto status = entryOf<Dictionary>(client().getResourceStatus(unlimited.name()), "AutoscaleStatus");
            return entryOf<std::string>(status, "Condition") == "Deferred";
        },
        bound));

    for (const auto& entry : client().getHistory(unlimited.name(), 0))
    {
        EXPECT_EQ(entryOf<std::string>(entry, "Result"), "deferred") << entryOf<std::string>(entry, "Message");
    }
    EXPECT_EQ(entryOf<std::string>(client().getResourceStatus(unlimited.name()), "UpdateState"), "deferred");
}

// The autoscaler's first limit on a container without one comes from what
// it uses, not from the node's capacity, which the down-window would then
// hold for minutes.
TEST_F(SeamsTest, AnAutoscalersFirstLimitComesFromTheUsage)
{
    const auto idle = runContainer("idle");
    ASSERT_TRUE(daemon().waitForStartEvent(idle.name()));
    client().setAutoscalePolicy(idle.name(), {{"CpuTargetUtilization", Variant(std::uint32_t{50})},
                                              {"IntervalUSec", Variant(std::uint64_t{100'000})}});

    ASSERT_TRUE(waitUntil([&] { return CgroupLimits::read(idle.cgroupPath()).cpuMillis().has_value(); }, bound));

    // A shell that sleeps uses next to nothing: twice that is far below
    // the node's capacity.
    EXPECT_LT(*CgroupLimits::read(idle.cgroupPath()).cpuMillis(), cpuCapacity() / 4);
    EXPECT_LT(client().managerNumber("CpuAllocatedMillis"), cpuCapacity() / 4);
}

// A pod member re-created outside its pod is admitted again on the node:
// its limit was inside the pod's, which the node counted, and outside it
// must find room of its own, waiting for it meanwhile.
TEST_F(SeamsTest, AMemberOutsideItsPodIsAdmittedAgain)
{
    const ScopedPod pod(podman(), containerName("shop"), ScopedPod::Infra::with);
    const std::string podWorkload = "pod:" + pod.name();
    const std::string name = containerName("cart");
    std::optional<ScopedContainer> cart(std::in_place, podman(), name, std::vector<std::string>{"--pod", pod.name()});
    client().updateResources(podWorkload, ResourceValues{.cpuMillis = cpuCapacity() - 500});
    client().updateResources(name, ResourceValues{.cpuMillis = 1000});
    const std::uint64_t allocated = client().managerNumber("CpuAllocatedMillis");

    cart.reset();
    cart.emplace(podman(), name);

    ASSERT_TRUE(waitUntil(
        [&] { return entryOf<std::string>(client().getResourceStatus(name), "UpdateState") == "deferred"; }, bound))
        << entryOf<std::string>(client().getResourceStatus(name), "Message");
    EXPECT_EQ(entryOf<std::string>(client().getResourceStatus(name), "Pod"), "");
    EXPECT_NE(CgroupLimits::read(cart->cgroupPath()).cpuMillis(), 1000U);
    EXPECT_EQ(client().managerNumber("CpuAllocatedMillis"), allocated);
    // Room made on the node, it is admitted there.
    client().updateResources(podWorkload, ResourceValues{.cpuMillis = 500});
    EXPECT_TRUE(waitUntil([&] { return CgroupLimits::read(cart->cgroupPath()).cpuMillis() == 1000U; }, bound));
    EXPECT_EQ(client().managerNumber("CpuAllocatedMillis"), 1500U);
}

// A pool's cap holds for a member inside a pod of no pool: the pod's limit
// covers the member on the node, but counts nothing in the member's pool.
TEST_F(SeamsTest, APoolsCapHoldsForAMemberInsideAPodOfAnotherPool)
{
    client().setPool("batch", {{"CpuMillis", Variant(std::uint64_t{500})}});
    const sdbus::ObjectPath batch("/io/resized1/pool/batch");
    const ScopedPod pod(podman(), containerName("shop"), ScopedPod::Infra::with);
    const auto cart = runContainer("cart", {"--pod", pod.name(), poolLabel});
    const auto other = runContainer("other", {poolLabel});
    ASSERT_TRUE(daemon().waitForStartEvent(cart.name()));
    client().updateResources("pod:" + pod.name(), ResourceValues{.cpuMillis = 1000});
    client().updateResources(cart.name(), ResourceValues{.cpuMillis = 100});
    client().updateResources(other.name(), ResourceValues{.cpuMillis = 300});
    EXPECT_EQ(entryOf<std::uint64_t>(client().poolProperties(batch), "CpuAllocatedMillis"), 400U);

    const auto refused =
        errorOf([&] { client().updateResources(cart.name(), ResourceValues{.cpuMillis = 400}); });

    ASSERT_TRUE(refused);
    EXPECT_EQ(refused->getName(), "io.resized1.Error.InsufficientResources");
    EXPECT_EQ(refused->getMessage(), "pool batch: asked 300m more CPU, 100m available in the pool");
    EXPECT_EQ(CgroupLimits::read(cart.cgroupPath()).cpuMillis(), 100U);
    EXPECT_EQ(entryOf<std::uint64_t>(client().poolProperties(batch), "CpuAllocatedMillis"), 400U);
}

// ReservedCpus= changed across a restart to a CPU a slice holds: the slice
// keeps its count outside the reserved CPUs, and its holder moves there.
TEST_F(SeamsTest, ASliceOnACpuReservedSinceTheLastStartMovesOffIt)
{
    const auto online = parseCpuList(onlineCpuList());
    ASSERT_GE(online.size(), 2U) << "the CPU manager needs a shared pool besides a slice";
    withStaticCpuManager();
    const auto holder = runContainer("holder");
    client().updateResources(holder.name(), {{"ExclusiveCpus", Variant(std::uint64_t{1})}});
    const std::string before = exclusiveCpuSet();
    ASSERT_EQ(countCpus(before), 1U);

    daemon().stop();
    withStaticCpuManager(before);

    EXPECT_EQ(client().managerProperty("ReservedCpus").get<std::string>(), before);
    // Until its move lands, the slice holds only what is not reserved.
    ASSERT_TRUE(waitUntil([&] { return countCpus(exclusiveCpuSet()) == 1U && exclusiveCpuSet() != before; }, bound))
        << exclusiveCpuSet();
    const std::string after = exclusiveCpuSet();
    EXPECT_TRUE(waitUntil([&] { return CgroupV1(holder.cgroupPath()).read("cpuset", "cpuset.cpus") == after; }, bound));
    const auto history = client().getHistory(holder.name(), 1);
    ASSERT_EQ(history.size(), 1U);
    EXPECT_EQ(entryOf<std::string>(history[0], "Actor"), "reconcile");
}

// Where no slice of its count fits outside the reserved CPUs, resized does
// not start, and says which slice keeps it from starting.
TEST_F(SeamsTest, ASliceThatCannotLeaveTheReservedCpusKeepsResizedFromStarting)
{
    ASSERT_GE(countCpus(onlineCpuList()), 2U) << "the CPU manager needs a shared pool besides a slice";
    withStaticCpuManager();
    const auto holder = runContainer("holder");
    client().updateResources(holder.name(), {{"ExclusiveCpus", Variant(std::uint64_t{1})}});
    daemon().stop();
    writeStaticCpuManagerConfig(onlineCpuList());

    try
    {
        DaemonProcess refused(daemonOptions());
        ADD_FAILURE() << "resized started with a slice on reserved CPUs";
    }
    catch (const std::runtime_error& error)
    {
        EXPECT_NE(std::string(error.what()).find(holder.name() + "'s exclusive CPUs"), std::string::npos)
            << error.what();
    }
}

// [CpuManager] is read at start-up only: a reload leaves the CPU manager as
// it was while it takes the rest of the file.
TEST_F(SeamsTest, AReloadKeepsTheCpuManagersSettings)
{
    withStaticCpuManager();
    const std::string firstCpu = std::to_string(*parseCpuList(onlineCpuList()).begin());
    const std::uint64_t capacity = cpuCapacity();
    writeStaticCpuManagerConfig(firstCpu, "100m");

    ASSERT_EQ(::kill(daemon().pid(), SIGHUP), 0);

    ASSERT_TRUE(waitUntil([&] { return cpuCapacity() == capacity - 100; }, bound));
    EXPECT_EQ(client().managerProperty("ReservedCpus").get<std::string>(), "");
    EXPECT_EQ(client().managerProperty("CpuManagerPolicy").get<std::string>(), "static");
}

} // namespace
} // namespace resized::integration
