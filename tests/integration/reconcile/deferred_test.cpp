// Deferred resizes end to end: a request with Defer that does not fit waits,
// unapplied, until capacity frees, and is then applied on its own.

#include "manager_signals.h"
#include "reconcile_test.h"

#include "support/wait.h"

#include <gtest/gtest.h>

namespace resized::integration
{
namespace
{

const Dictionary deferIfShort{{"Defer", sdbus::Variant(true)}};

// Container A holds three quarters of the node, so that B's request for
// half of it has to wait.
class DeferredTest : public ReconcileTest
{
  protected:
    void SetUp() override
    {
        ReconcileTest::SetUp();
        if (IsSkipped())
        {
            return;
        }
        startDaemon();
        capacity = client().managerNumber("CpuCapacityMillis");
        holder.emplace(podman(), containerName("a"));
        waiter.emplace(podman(), containerName("b"));
        client().updateResources(holder->name(), cpuMillis(largeShare()));
    }

    std::uint64_t largeShare() const { return capacity * 3 / 4; }
    std::uint64_t half() const { return capacity / 2; }
    std::uint64_t quarter() const { return capacity / 4; }

    // Asks for half the node for the waiter and checks that the request
    // waits without changing anything.
    void deferHalfForWaiter()
    {
        const auto status = client().updateResources(waiter->name(), cpuMillis(half()), deferIfShort);
        EXPECT_EQ(entryOf<std::string>(status, "UpdateState"), "deferred");
        expectUntouched(*waiter);
    }

    // No limit was written and none is desired.
    void expectUntouched(const ScopedContainer& container)
    {
        EXPECT_EQ(limitsOf(container).cpuMillis(), std::nullopt) << limitsOf(container);
        EXPECT_EQ(desiredOf(client().getResourceStatus(container.name())).cpuMillis, std::nullopt);
    }

    // The deferred request for half the node has been applied on its own.
    void expectAppliedLater(const ScopedContainer& container, const ManagerSignals& signals)
    {
        EXPECT_TRUE(waitForCpuMillis(container, half())) << limitsOf(container);
        EXPECT_TRUE(signals.waitForCount("ResourcesApplied", container.name(), 1, backgroundTimeout));
        EXPECT_TRUE(waitUntil([&] { return updateStateOf(container.name()) == "success"; },
                              backgroundTimeout));
        const auto status = client().getResourceStatus(container.name());
        EXPECT_EQ(desiredOf(status).cpuMillis, half());
        EXPECT_EQ(entryOf<std::string>(status, "SyncState"), "synchronized");
    }

    std::uint64_t capacity = 0;
    std::optional<ScopedContainer> holder;
    std::optional<ScopedContainer> waiter;
};

TEST_F(DeferredTest, ShrinkOfAnotherWorkloadAppliesTheDeferredRequest)
{
    const ManagerSignals signals;
    deferHalfForWaiter();
    EXPECT_EQ(signals.count("ResourcesApplied", waiter->name()), 0u);

    client().updateResources(holder->name(), cpuMillis(quarter()));
    expectAppliedLater(*waiter, signals);
    EXPECT_EQ(client().managerNumber("CpuAllocatedMillis"), quarter() + half());
}

// Forget releases the allocation, and a stopped container has no cgroup
// holding anything.
TEST_F(DeferredTest, ForgettingAStoppedHolderFreesCapacityForTheDeferredRequest)
{
    const ManagerSignals signals;
    deferHalfForWaiter();

    ASSERT_TRUE(podman().run({"stop", "--time", "0", holder->name()}).succeeded());
    client().forget(holder->name());
    expectAppliedLater(*waiter, signals);
}

// A running container resized forgot keeps the limits resized left, and so
// its place in the budget (design.md §1b): nothing is freed.
TEST_F(DeferredTest, ForgettingARunningHolderFreesNothing)
{
    deferHalfForWaiter();

    client().forget(holder->name());
    client().reconcile("");
    EXPECT_EQ(updateStateOf(waiter->name()), "deferred");
    EXPECT_EQ(client().managerNumber("CpuAllocatedMillis"), largeShare());
    expectUntouched(*waiter);
}

// A stopped workload keeps its allocation for when it starts again; a
// removed one keeps it for [Workloads] RemovedGraceSec, for a re-creation
// under the same name, and then gives it back.
TEST_F(DeferredTest, RemovingTheHolderFreesCapacityOnceTheGraceIsOver)
{
    writeConfig("[Node]\nReservedCPU=0\n[Sync]\nIntervalSec=3600\n[Workloads]\nRemovedGraceSec=2s\n");
    startDaemon();
    const ManagerSignals signals;
    deferHalfForWaiter();

    ASSERT_TRUE(podman().run({"stop", "--time", "0", holder->name()}).succeeded());
    client().reconcile(holder->name());
    EXPECT_EQ(updateStateOf(waiter->name()), "deferred");

    const std::string holderName = holder->name();
    holder.reset();
    expectAppliedLater(*waiter, signals);
    const auto status = client().getResourceStatus(holderName);
    EXPECT_EQ(desiredOf(status).cpuMillis, largeShare());
    EXPECT_EQ(entryOf<std::string>(status, "UpdateState"), "pending");
}

TEST_F(DeferredTest, RequestLargerThanTheNodeIsInfeasibleEvenWithDefer)
{
    const auto error = errorOf([&] {
        client().updateResources(waiter->name(), cpuMillis(capacity + 1000), deferIfShort);
    });
    ASSERT_TRUE(error);
    EXPECT_EQ(error->getName(), "io.resized1.Error.Infeasible");
    EXPECT_NE(updateStateOf(waiter->name()), "deferred");
    expectUntouched(*waiter);
}

TEST_F(DeferredTest, NewerPlainRequestReplacesTheDeferredOne)
{
    deferHalfForWaiter();
    const std::uint64_t small = capacity * 3 / 20;
    client().updateResources(waiter->name(), cpuMillis(small));
    ASSERT_EQ(limitsOf(*waiter).cpuMillis(), small);

    // A third workload defers too. Once the holder shrinks, it fits only if
    // the waiter's replaced request is not applied first (older requests go
    // first), so its being applied shows that the pass over the deferred
    // requests ran without the replaced one.
    const ManagerSignals signals;
    const auto third = runContainer("c");
    const auto status = client().updateResources(third.name(), cpuMillis(half()), deferIfShort);
    ASSERT_EQ(entryOf<std::string>(status, "UpdateState"), "deferred");

    client().updateResources(holder->name(), cpuMillis(quarter()));
    expectAppliedLater(third, signals);
    EXPECT_EQ(limitsOf(*waiter).cpuMillis(), small) << limitsOf(*waiter);
    EXPECT_EQ(desiredOf(client().getResourceStatus(waiter->name())).cpuMillis, small);
    EXPECT_EQ(signals.count("ResourcesApplied", waiter->name()), 0u);
}

} // namespace
} // namespace resized::integration
