// Pod budgets (design.md §1b, the pod-level resources of Kubernetes) with a
// real pod and its infra container: the node allocates a pod's limit and not
// its members' again, and each member's limit must fit inside the pod's.
// (A pod's name is its hostname: test names stay short.)

#include "events_test.h"
#include "support/scoped_pod.h"

#include <gtest/gtest.h>

#include <optional>

namespace resized::integration::events
{
namespace
{

using PodBudgetTest = EventsTest;

constexpr auto infeasible = "io.resized1.Error.Infeasible: ";

TEST_F(PodBudgetTest, APodsLimitCountsOnceAndHoldsItsMembers)
{
    startDaemon();
    const ScopedPod pod(podman(), nameFor("shop"), ScopedPod::Infra::with);
    const std::string podWorkload = "pod:" + pod.name();
    const ScopedContainer cart(podman(), nameFor("cart"), {"--pod", pod.name()});
    const ScopedContainer till(podman(), nameFor("till"), {"--pod", pod.name()});
    const std::uint64_t before = bus().cpuAllocatedMillis();

    // Without a limit of its own, a pod's members count one by one.
    bus().update(cart.name(), cpu(300));
    bus().update(till.name(), cpu(300));
    EXPECT_EQ(bus().cpuAllocatedMillis(), before + 600);

    bus().update(podWorkload, cpu(1000));
    EXPECT_EQ(bus().cpuAllocatedMillis(), before + 1000);
    EXPECT_TRUE(waitForLimits(pod.cgroupPath(), {.cpuMillis = 1000}));

    // A node full to the last millicore still lets a member grow inside
    // its pod's limit: that is allocated already.
    const auto hog = runContainer("hog");
    const std::uint64_t capacity = bus().managerNumber("CpuCapacityMillis");
    bus().update(hog.name(), cpu(capacity - bus().cpuAllocatedMillis()));
    EXPECT_EQ(bus().managerNumber("CpuAvailableMillis"), 0u);
    bus().update(cart.name(), cpu(800));
    EXPECT_TRUE(waitForLimits(cart.cgroupPath(), {.cpuMillis = 800}));
    EXPECT_EQ(bus().cpuAllocatedMillis(), capacity);

    // Beyond the pod's limit, either way: refused, nothing changed.
    EXPECT_EQ(errorOf([&] { bus().update(cart.name(), cpu(1200)); }),
              infeasible + ("pod " + pod.name() + ": " + cart.name() +
                            "'s limit of 1200m CPU is more than the pod's 1 CPU"));
    EXPECT_EQ(errorOf([&] { bus().update(podWorkload, cpu(500)); }),
              infeasible + ("pod " + pod.name() + ": " + cart.name() +
                            "'s limit of 800m CPU is more than the pod's 500m CPU"));
    EXPECT_TRUE(waitForLimits(cart.cgroupPath(), {.cpuMillis = 800}));
    EXPECT_TRUE(waitForLimits(pod.cgroupPath(), {.cpuMillis = 1000}));
    EXPECT_EQ(bus().cpuAllocatedMillis(), capacity);

    // Durable: a restarted daemon counts the same.
    stopDaemon();
    startDaemon();
    EXPECT_EQ(bus().cpuAllocatedMillis(), capacity);

    // Without its limit, the pod's members would count one by one again:
    // 1100m where the pod holds 1000m, on a node without room.
    EXPECT_EQ(errorNameOf([&] { bus().update(podWorkload, cpu(UINT64_MAX)); }),
              "io.resized1.Error.InsufficientResources");
    EXPECT_TRUE(waitForLimits(pod.cgroupPath(), {.cpuMillis = 1000}));

    // Forgotten, the pod keeps its cgroup's limit, and its members stay
    // inside it: it counts as an unmanaged pod, at that limit.
    bus().forget(podWorkload);
    EXPECT_EQ(bus().cpuAllocatedMillis(), capacity);
    // Also after a pass over every workload, which lists the pods too.
    bus().reconcile("");
    EXPECT_EQ(bus().cpuAllocatedMillis(), capacity);
}

// Force lowers a pod below its members' limits by lowering those members to
// the pod's new limit first, as one plan: all or nothing, durable, and in
// the members' history as the plan's.
TEST_F(PodBudgetTest, ForceLowersThePodsMembersWithIt)
{
    startDaemon();
    const ScopedPod pod(podman(), nameFor("shop"), ScopedPod::Infra::with);
    const std::string podWorkload = "pod:" + pod.name();
    const ScopedContainer cart(podman(), nameFor("cart"), {"--pod", pod.name()});
    const ScopedContainer till(podman(), nameFor("till"), {"--pod", pod.name()});
    bus().update(podWorkload, cpu(1000));
    bus().update(cart.name(), cpu(800));
    bus().update(till.name(), cpu(300));
    const std::uint64_t before = bus().cpuAllocatedMillis();

    EXPECT_EQ(errorOf([&] { bus().update(podWorkload, cpu(500)); }),
              infeasible + ("pod " + pod.name() + ": " + cart.name() +
                            "'s limit of 800m CPU is more than the pod's 500m CPU"));
    EXPECT_TRUE(waitForLimits(cart.cgroupPath(), {.cpuMillis = 800}));

    const Dictionary status = bus().update(podWorkload, cpu(500), {{"Force", sdbus::Variant(true)}});
    EXPECT_EQ(entryOf<std::uint64_t>(entryOf<Dictionary>(status, "Desired"), "CpuMillis"), 500u);
    EXPECT_TRUE(waitForLimits(pod.cgroupPath(), {.cpuMillis = 500}));
    EXPECT_TRUE(waitForLimits(cart.cgroupPath(), {.cpuMillis = 500}));
    EXPECT_TRUE(waitForLimits(till.cgroupPath(), {.cpuMillis = 300}));
    EXPECT_EQ(entryOf<std::uint64_t>(entryOf<Dictionary>(bus().resourceStatus(cart.name()), "Desired"), "CpuMillis"),
              500u);
    EXPECT_EQ(bus().cpuAllocatedMillis(), before - 500);
    const auto history = bus().history(cart.name());
    ASSERT_FALSE(history.empty());
    EXPECT_EQ(history.front().substr(0, 5), "plan:") << history.front();
    EXPECT_NE(history.front().find(" success"), std::string::npos) << history.front();
}

// The pod's budget over its life: stopped, it holds its limit and its
// members stay inside; started, both get their limits back; a member
// re-created in the pod under its name gets its own back, inside the pod's,
// and the node's figure never moves.
TEST_F(PodBudgetTest, ItHoldsWhileAPodStopsAndAMemberReturns)
{
    startDaemon();
    const ScopedPod pod(podman(), nameFor("shop"), ScopedPod::Infra::with);
    const std::string podWorkload = "pod:" + pod.name();
    const std::string cartName = nameFor("cart");
    std::optional<ScopedContainer> cart(std::in_place, podman(), cartName,
                                        std::vector<std::string>{"--pod", pod.name()});
    const std::uint64_t before = bus().cpuAllocatedMillis();
    bus().update(podWorkload, cpu(1000));
    bus().update(cartName, cpu(600));
    const std::uint64_t allocated = bus().cpuAllocatedMillis();
    EXPECT_EQ(allocated, before + 1000);

    podmanOrThrow({"pod", "stop", "--time", "0", pod.name()});
    bus().reconcile("");
    EXPECT_EQ(bus().cpuAllocatedMillis(), allocated);
    podmanOrThrow({"pod", "start", pod.name()});
    EXPECT_TRUE(waitForLimits(pod.cgroupPath(), {.cpuMillis = 1000}));
    EXPECT_TRUE(waitForLimits(cart->cgroupPath(), {.cpuMillis = 600}));
    EXPECT_EQ(bus().cpuAllocatedMillis(), allocated);

    cart.reset();
    cart.emplace(podman(), cartName, std::vector<std::string>{"--pod", pod.name()});
    EXPECT_TRUE(waitForLimits(cart->cgroupPath(), {.cpuMillis = 600}));
    EXPECT_EQ(cart->cgroupPath().parent_path(), pod.cgroupPath());
    EXPECT_TRUE(waitForSynchronized(cartName));
    EXPECT_EQ(bus().cpuAllocatedMillis(), allocated);
}

} // namespace
} // namespace resized::integration::events
