// Plans (design.md §1b): several changes admitted as one, validated again
// just before they run, all or nothing, over the real bus on real
// containers.

#include "daemon_test.h"
#include "properties_recorder.h"
#include "signal_recorder.h"

#include "support/cgroup_v1.h"
#include "support/scoped_pod.h"
#include "support/wait.h"

#include <gtest/gtest.h>

#include <optional>

namespace resized::integration
{
namespace
{

using sdbus::Variant;

constexpr auto bound = std::chrono::seconds(30);

class PlanTest : public DaemonTest
{
  protected:
    static PlanChange cpu(const ScopedContainer& container, std::uint64_t millis)
    {
        return {container.name(), ResourceValues{.cpuMillis = millis}.toDictionary()};
    }

    std::string stateOf(const sdbus::ObjectPath& plan)
    {
        return entryOf<std::string>(client().planProperties(plan), "State");
    }

    // Waits until the plan has finished and returns its properties.
    Dictionary finished(const sdbus::ObjectPath& plan)
    {
        const auto done = [&] {
            const std::string state = stateOf(plan);
            return state != "pending" && state != "running";
        };
        EXPECT_TRUE(waitUntil(done, bound)) << "plan " << plan << " is still " << stateOf(plan);
        return client().planProperties(plan);
    }

    // Has `holder` take every CPU of the node but `free` millicores.
    void fillNodeBut(const ScopedContainer& holder, std::uint64_t free)
    {
        client().updateResources(holder.name(), ResourceValues{.cpuMillis = cpuCapacity() - free});
    }
};

TEST_F(PlanTest, APlanMovesCpuBetweenTwoWorkloadsOnAFullNode)
{
    const auto from = runContainer("from");
    const auto to = runContainer("to");
    client().updateResources(from.name(), ResourceValues{.cpuMillis = 800});
    client().updateResources(to.name(), ResourceValues{.cpuMillis = 200});
    const auto holder = runContainer("holder");
    fillNodeBut(holder, 1000);
    const SignalRecorder signals;
    // One call at a time, the increase cannot come first.
    const auto alone = errorOf([&] { client().updateResources(to.name(), ResourceValues{.cpuMillis = 700}); });
    ASSERT_TRUE(alone);
    EXPECT_EQ(alone->getName(), "io.resized1.Error.InsufficientResources");

    const auto plan = client().submitPlan({cpu(to, 700), cpu(from, 300)});

    const Dictionary properties = finished(plan);
    EXPECT_EQ(entryOf<std::string>(properties, "State"), "succeeded") << entryOf<std::string>(properties, "Message");
    EXPECT_EQ(entryOf<std::string>(properties, "Reason"), "");
    EXPECT_GE(entryOf<std::uint64_t>(properties, "FinishedAtUSec"), entryOf<std::uint64_t>(properties, "SubmittedAtUSec"));
    EXPECT_EQ(CgroupLimits::read(to.cgroupPath()).cpuMillis(), 700U);
    EXPECT_EQ(CgroupLimits::read(from.cgroupPath()).cpuMillis(), 300U);
    EXPECT_TRUE(signals.waitFor("PlanFinished", plan, "succeeded"));
    EXPECT_EQ(client().managerNumber("CpuAllocatedMillis"), cpuCapacity());
    EXPECT_EQ(client().managerNumber("CpuReservedMillis"), 0U);
    EXPECT_EQ(desiredOf(client().getResourceStatus(to.name())).cpuMillis, 700U);
    const auto history = client().getHistory(to.name(), 1);
    ASSERT_EQ(history.size(), 1U);
    EXPECT_EQ(entryOf<std::string>(history[0], "Actor"), "plan:" + std::to_string(entryOf<std::uint64_t>(properties, "Id")));
    const auto listed = client().listPlans();
    ASSERT_EQ(listed.size(), 1U);
    EXPECT_EQ(listed[0].get<1>(), plan);
    EXPECT_TRUE(client().managedObjects().at(plan).contains(planInterface));
}

// As systemd's jobs do, the plan's object says when it begins to run, not
// only when it ended.
TEST_F(PlanTest, APlanAnnouncesThatItRunsAndHowItEnded)
{
    const auto container = runContainer("c");
    const auto plan = client().submitPlan({cpu(container, 300)}, {{"DelayUSec", Variant(std::uint64_t{1'000'000})}});
    const PropertiesRecorder properties(plan, planInterface);

    EXPECT_TRUE(properties.waitForValue("State", std::string("succeeded"), bound));
    EXPECT_EQ(properties.valuesOf("State"),
              (std::vector<PropertyValue>{std::string("running"), std::string("succeeded")}));
    EXPECT_EQ(CgroupLimits::read(container.cgroupPath()).cpuMillis(), 300U);
    EXPECT_NE(client().getMetrics().find("\nresized_plans_total{state=\"succeeded\",reason=\"\"} 1\n"),
              std::string::npos);
}

TEST_F(PlanTest, APlanThatDoesNotFitIsRejectedForCapacityAndChangesNothing)
{
    const auto first = runContainer("first");
    const auto second = runContainer("second");
    const auto holder = runContainer("holder");
    fillNodeBut(holder, 500);

    const auto plan = client().submitPlan({cpu(first, 300), cpu(second, 300)});

    const Dictionary properties = finished(plan);
    EXPECT_EQ(entryOf<std::string>(properties, "State"), "rejected");
    EXPECT_EQ(entryOf<std::string>(properties, "Reason"), "capacity");
    EXPECT_EQ(entryOf<std::string>(properties, "Message"), "asked 600m more CPU, 500m available on this node");
    const std::string metrics = client().getMetrics();
    EXPECT_NE(metrics.find("\nresized_plans_total{state=\"rejected\",reason=\"capacity\"} 1\n"), std::string::npos)
        << metrics;
    EXPECT_NE(CgroupLimits::read(first.cgroupPath()).cpuMillis(), 300U);
    EXPECT_NE(CgroupLimits::read(second.cgroupPath()).cpuMillis(), 300U);
    EXPECT_EQ(client().managerNumber("CpuReservedMillis"), 0U);
}

TEST_F(PlanTest, AStaleExpectedGenerationIsRejectedAsChurn)
{
    const auto container = runContainer("c");
    client().updateResources(container.name(), ResourceValues{.cpuMillis = 300});
    // The planner read generation 1; another change came after.
    client().updateResources(container.name(), ResourceValues{.cpuMillis = 400});

    const auto plan = client().submitPlan(
        {cpu(container, 600)},
        {{"ExpectedGenerations", Variant(std::map<std::string, std::uint64_t>{{container.name(), 1}})}});

    const Dictionary properties = finished(plan);
    EXPECT_EQ(entryOf<std::string>(properties, "State"), "rejected");
    EXPECT_EQ(entryOf<std::string>(properties, "Reason"), "churn");
    EXPECT_EQ(entryOf<std::string>(properties, "Message"),
              container.name() + " is at generation 2, the plan expected 1");
    EXPECT_EQ(CgroupLimits::read(container.cgroupPath()).cpuMillis(), 400U);
    // The generation it is at passes.
    const auto current = client().submitPlan(
        {cpu(container, 600)},
        {{"ExpectedGenerations", Variant(std::map<std::string, std::uint64_t>{{container.name(), 2}})}});
    EXPECT_EQ(entryOf<std::string>(finished(current), "State"), "succeeded");
    EXPECT_EQ(CgroupLimits::read(container.cgroupPath()).cpuMillis(), 600U);
}

TEST_F(PlanTest, AContainerRecreatedDuringTheDelayIsRejectedAsChurn)
{
    const auto other = runContainer("other");
    std::optional<ScopedContainer> container;
    container.emplace(podman(), containerName("c"));
    const std::string name = container->name();

    const auto plan = client().submitPlan({cpu(*container, 300), cpu(other, 300)},
                                          {{"DelayUSec", Variant(std::uint64_t{3'000'000})}});
    EXPECT_EQ(stateOf(plan), "pending");
    container.reset();
    container.emplace(podman(), name);

    const Dictionary properties = finished(plan);
    EXPECT_EQ(entryOf<std::string>(properties, "State"), "rejected");
    EXPECT_EQ(entryOf<std::string>(properties, "Reason"), "churn");
    EXPECT_EQ(entryOf<std::string>(properties, "Message"),
              name + " is another container than when the plan was submitted");
    EXPECT_NE(CgroupLimits::read(container->cgroupPath()).cpuMillis(), 300U);
    EXPECT_NE(CgroupLimits::read(other.cgroupPath()).cpuMillis(), 300U);
}

// The memory shrink comes second and cannot be applied: the first change,
// already written, is undone.
TEST_F(PlanTest, APlanWhoseSecondChangeFailsLeavesTheFirstUndone)
{
    const auto first = runContainer("first");
    client().updateResources(first.name(), ResourceValues{.cpuMillis = 500});
    const auto holder =
        ScopedContainer::holdingMemory(podman(), containerName("holder"), 200, {"--memory-swappiness=0"});
    ASSERT_TRUE(CgroupV1(holder.cgroupPath()).waitForMemoryUsageAbove(150 * mebibyte, std::chrono::seconds(60)));
    const CgroupLimits holderBefore = CgroupLimits::read(holder.cgroupPath());

    const auto plan = client().submitPlan(
        {cpu(first, 300), {holder.name(), ResourceValues{.memoryMax = 64 * mebibyte}.toDictionary()}});

    const Dictionary properties = finished(plan);
    EXPECT_EQ(entryOf<std::string>(properties, "State"), "failed");
    EXPECT_EQ(entryOf<std::string>(properties, "Reason"), "apply");
    EXPECT_EQ(CgroupLimits::read(first.cgroupPath()).cpuMillis(), 500U);
    EXPECT_EQ(CgroupLimits::read(holder.cgroupPath()).memoryLimit, holderBefore.memoryLimit);
    EXPECT_EQ(desiredOf(client().getResourceStatus(first.name())).cpuMillis, 500U);
    EXPECT_EQ(podman().inspect(holder.name(), "{{.State.Running}} {{.State.OOMKilled}}"), "true false");
    EXPECT_EQ(client().managerNumber("CpuReservedMillis"), 0U);
    EXPECT_EQ(client().managerNumber("CpuAllocatedMillis"), 500U);
}

TEST_F(PlanTest, ADryRunSaysWhatWouldHappenAndChangesNothing)
{
    const auto container = runContainer("c");

    const auto plan = client().submitPlan({cpu(container, 300)}, {{"DryRun", Variant(true)}});

    const Dictionary properties = finished(plan);
    EXPECT_EQ(entryOf<std::string>(properties, "State"), "succeeded");
    EXPECT_EQ(entryOf<std::string>(properties, "Message"), "dry run: would apply " + container.name() + ": cpu=300m");
    EXPECT_NE(CgroupLimits::read(container.cgroupPath()).cpuMillis(), 300U);
    EXPECT_EQ(client().listWorkloads().size(), 0U);
}

TEST_F(PlanTest, APendingPlanCanBeCancelledAndSurvivesARestart)
{
    const auto container = runContainer("c");
    const auto kept = client().submitPlan({cpu(container, 300)}, {{"DelayUSec", Variant(std::uint64_t{4'000'000})}});
    const auto cancelled = client().submitPlan({cpu(container, 400)}, {{"DelayUSec", Variant(std::uint64_t{3'600'000'000})}});

    client().cancelPlan(cancelled);
    const auto again = errorOf([&] { client().cancelPlan(cancelled); });
    daemon().stop();
    startDaemon();

    EXPECT_EQ(stateOf(cancelled), "cancelled");
    ASSERT_TRUE(again);
    EXPECT_EQ(again->getName(), "io.resized1.Error.InvalidArgument");
    EXPECT_EQ(entryOf<std::string>(finished(kept), "State"), "succeeded");
    EXPECT_EQ(CgroupLimits::read(container.cgroupPath()).cpuMillis(), 300U);
}

// A plan waiting with Defer for room is kept in the state file: after a
// crash it waits again, in the deferred queue, and runs once room frees.
TEST_F(PlanTest, APlanWaitingForRoomSurvivesACrashAndRunsWhenRoomFrees)
{
    const auto container = runContainer("c");
    const auto holder = runContainer("holder");
    fillNodeBut(holder, 0);
    const auto plan = client().submitPlan({cpu(container, 300)}, {{"Defer", Variant(true)}});
    EXPECT_EQ(stateOf(plan), "pending");

    daemon().kill9();
    startDaemon();
    EXPECT_EQ(stateOf(plan), "pending");
    fillNodeBut(holder, 300);

    EXPECT_EQ(entryOf<std::string>(finished(plan), "State"), "succeeded");
    EXPECT_EQ(CgroupLimits::read(container.cgroupPath()).cpuMillis(), 300U);
    EXPECT_EQ(client().managerNumber("CpuAllocatedMillis"), cpuCapacity());
}

TEST_F(PlanTest, BadPlansAreRefusedAndChangeNothing)
{
    const auto container = runContainer("c");
    const auto expectError = [&](const std::vector<PlanChange>& changes, const Dictionary& options,
                                 const std::string& name) {
        const auto error = errorOf([&] { client().submitPlan(changes, options); });
        ASSERT_TRUE(error) << "accepted";
        EXPECT_EQ(error->getName(), name) << error->getMessage();
    };

    expectError({}, {}, "io.resized1.Error.InvalidArgument");
    expectError({cpu(container, 300), cpu(container, 400)}, {}, "io.resized1.Error.InvalidArgument");
    expectError({{container.name(), {}}}, {}, "io.resized1.Error.InvalidArgument");
    expectError({{container.name(), {{"CpuMillis", Variant(std::uint64_t{0})}}}}, {},
                "io.resized1.Error.InvalidArgument");
    expectError({cpu(container, 300)}, {{"Bogus", Variant(true)}}, "io.resized1.Error.InvalidArgument");
    expectError({cpu(container, 300)}, {{"Reason", Variant("whim")}}, "io.resized1.Error.InvalidArgument");
    expectError({cpu(container, 300)},
                {{"ExpectedGenerations", Variant(std::map<std::string, std::uint64_t>{{"stranger", 1}})}},
                "io.resized1.Error.InvalidArgument");
    expectError({{"nosuchcontainer", ResourceValues{.cpuMillis = 300}.toDictionary()}}, {},
                "io.resized1.Error.NoSuchWorkload");

    EXPECT_TRUE(client().listPlans().empty());
    EXPECT_NE(CgroupLimits::read(container.cgroupPath()).cpuMillis(), 300U);
    EXPECT_EQ(callAsNobody({"SubmitPlan", container.name()}), "org.freedesktop.DBus.Error.AccessDenied");
    EXPECT_EQ(callAsNobody({"ListPlans"}), "ok");
}

// A plan may change a pod and its members together (design.md §1b, pod
// budgets): it is measured as their group after it, so a member may outgrow
// the pod's old limit while the plan raises the pod, and the pod may go
// below a member's old limit while the plan lowers that member.
TEST_F(PlanTest, APlanChangesAPodAndItsMemberTogether)
{
    const ScopedPod pod(podman(), containerName("pod"), ScopedPod::Infra::with);
    const std::string podWorkload = "pod:" + pod.name();
    const auto cart = runContainer("cart", {"--pod", pod.name()});
    const auto podCpu = [&](std::uint64_t millis) {
        return PlanChange{podWorkload, ResourceValues{.cpuMillis = millis}.toDictionary()};
    };
    const std::uint64_t before = client().managerNumber("CpuAllocatedMillis");
    client().updateResources(podWorkload, ResourceValues{.cpuMillis = 600});
    client().updateResources(cart.name(), ResourceValues{.cpuMillis = 500});
    const auto alone = errorOf([&] { client().updateResources(cart.name(), ResourceValues{.cpuMillis = 900}); });
    ASSERT_TRUE(alone);
    EXPECT_EQ(alone->getName(), "io.resized1.Error.Infeasible");

    const auto raise = finished(client().submitPlan({cpu(cart, 900), podCpu(1200)}));
    EXPECT_EQ(entryOf<std::string>(raise, "State"), "succeeded") << entryOf<std::string>(raise, "Message");
    EXPECT_EQ(CgroupLimits::read(pod.cgroupPath()).cpuMillis(), 1200U);
    EXPECT_EQ(CgroupLimits::read(cart.cgroupPath()).cpuMillis(), 900U);
    EXPECT_EQ(client().managerNumber("CpuAllocatedMillis"), before + 1200);

    const auto lower = finished(client().submitPlan({podCpu(300), cpu(cart, 200)}));
    EXPECT_EQ(entryOf<std::string>(lower, "State"), "succeeded") << entryOf<std::string>(lower, "Message");
    EXPECT_EQ(CgroupLimits::read(pod.cgroupPath()).cpuMillis(), 300U);
    EXPECT_EQ(CgroupLimits::read(cart.cgroupPath()).cpuMillis(), 200U);
    EXPECT_EQ(client().managerNumber("CpuAllocatedMillis"), before + 300);
}

} // namespace
} // namespace resized::integration
