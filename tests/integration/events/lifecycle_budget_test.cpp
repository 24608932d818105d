// The budget and the bindings stay true over a workload's whole life
// (design.md §1b, "Names and allocations over a workload's life"): each test
// is a case in which resized's budget or a workload's limits once went wrong,
// reproduced with real containers.

#include "events_test.h"

#include <gtest/gtest.h>

namespace resized::integration::events
{
namespace
{

using LifecycleBudgetTest = EventsTest;

constexpr auto insufficient = "io.resized1.Error.InsufficientResources";
constexpr auto noSuchWorkload = "io.resized1.Error.NoSuchWorkload";

// `b3`, `db`, `42` are names and hex prefixes at once: a known workload of
// that name whose container is gone must never resolve to another
// container whose ID starts that way.
TEST_F(LifecycleBudgetTest, AShortNameNeverLandsOnAContainerWhoseIdStartsWithIt)
{
    startDaemon();
    const auto web = runContainer("web");
    const std::string prefix = web.id().substr(0, 4);
    {
        const ScopedContainer named(podman(), prefix);
        bus().update(prefix, cpu(300));
    }
    const auto webBefore = readLimits(web.cgroupPath());
    ASSERT_TRUE(webBefore);

    bus().update(prefix, cpu(700));

    EXPECT_EQ(readLimits(web.cgroupPath()), webBefore);
    EXPECT_NE(entryOf<std::string>(bus().resourceStatus(prefix), "ContainerId"), web.id());
    bus().reconcile(prefix);
    EXPECT_EQ(readLimits(web.cgroupPath()), webBefore);
    // Without a known workload of that name, an ID prefix names a container
    // only from 12 hex digits on.
    EXPECT_EQ(errorNameOf([&] { bus().resourceStatus(web.id().substr(0, 11)); }), noSuchWorkload);
    EXPECT_EQ(entryOf<std::string>(bus().resourceStatus(web.id().substr(0, 12)), "Workload"), web.name());
}

TEST_F(LifecycleBudgetTest, AStoppedWorkloadKeepsItsAllocationAgainstOthers)
{
    startDaemon();
    const std::uint64_t capacity = bus().managerNumber("CpuCapacityMillis");
    const std::uint64_t moreThanHalf = capacity / 2 + 100;
    const auto first = runContainer("first");
    const auto second = runContainer("second");
    bus().update(first.name(), cpu(moreThanHalf));

    podmanOrThrow({"stop", "--time", "0", first.name()});
    bus().reconcile(first.name());
    EXPECT_EQ(errorNameOf([&] { bus().update(second.name(), cpu(moreThanHalf)); }), insufficient);

    podmanOrThrow({"start", first.name()});
    EXPECT_TRUE(waitForLimits(first.cgroupPath(), {.cpuMillis = moreThanHalf}));
    EXPECT_LE(bus().cpuAllocatedMillis(), capacity);
}

// A frozen container keeps its memory and its cgroup: it keeps its
// allocation, and a change lands at once.
TEST_F(LifecycleBudgetTest, APausedWorkloadKeepsItsAllocationAndIsResizedAtOnce)
{
    startDaemon();
    const auto container = runContainer("c");
    bus().update(container.name(), cpu(800));
    const std::uint64_t allocated = bus().cpuAllocatedMillis();

    podmanOrThrow({"pause", container.name()});
    bus().reconcile(container.name());
    EXPECT_EQ(bus().cpuAllocatedMillis(), allocated);

    bus().update(container.name(), cpu(500));
    EXPECT_EQ(readLimits(container.cgroupPath())->cpuMillis, 500U);
    EXPECT_EQ(bus().cpuAllocatedMillis(), allocated - 300);
    podmanOrThrow({"unpause", container.name()});
}

// A change of memory alone, asked while the container is stopped, must not
// be taken as "one more CPU" for the CPU it was created with, nor leave that
// CPU out of the budget once it runs.
TEST_F(LifecycleBudgetTest, AMemoryChangeWhileStoppedKeepsTheCreateTimeCpuInTheBudget)
{
    startDaemon();
    const auto container = runContainer("c", {"--cpus=1"});
    podmanOrThrow({"stop", "--time", "0", container.name()});
    bus().reconcile("");
    const std::uint64_t cpuBefore = bus().cpuAllocatedMillis();
    const std::uint64_t memoryBefore = bus().managerNumber("MemoryAllocated");

    const auto status = bus().update(container.name(), {{"MemoryMax", sdbus::Variant(256 * mebibyte)}});
    EXPECT_EQ(entryOf<std::string>(status, "UpdateState"), "pending");
    EXPECT_EQ(bus().cpuAllocatedMillis(), cpuBefore + 1000);

    podmanOrThrow({"start", container.name()});
    EXPECT_TRUE(waitForLimits(container.cgroupPath(), {.cpuMillis = 1000, .memoryMax = 256 * mebibyte}));
    EXPECT_TRUE(waitForSynchronized(container.name()));
    EXPECT_EQ(bus().cpuAllocatedMillis(), cpuBefore + 1000);
    EXPECT_EQ(bus().managerNumber("MemoryAllocated"), memoryBefore + 256 * mebibyte);
}

// The keys without a desired value count what the cgroup holds now, also
// after the container was created again with other limits.
TEST_F(LifecycleBudgetTest, ARecreatedContainerCountsItsNewLimits)
{
    startDaemon();
    const std::string name = nameFor("c");
    std::uint64_t memoryWith256;
    {
        const ScopedContainer container(podman(), name, {"--memory=256m"});
        bus().update(name, cpu(500));
        memoryWith256 = bus().managerNumber("MemoryAllocated");
    }
    const ScopedContainer again(podman(), name, {"--memory=512m"});
    EXPECT_TRUE(waitForLimits(again.cgroupPath(), {.cpuMillis = 500, .memoryMax = 512 * mebibyte}));
    bus().reconcile("");
    EXPECT_EQ(bus().managerNumber("MemoryAllocated"), memoryWith256 + 256 * mebibyte);
}

// `podman update` tells no one; a container resized does not manage counts
// what its cgroup holds all the same.
TEST_F(LifecycleBudgetTest, AnUnmanagedContainerCountsWhatAPodmanUpdateGaveIt)
{
    startDaemon();
    const auto container = runContainer("c");
    bus().reconcile("");
    const std::uint64_t before = bus().cpuAllocatedMillis();

    podmanOrThrow({"update", "--cpus", "0.5", container.name()});
    // Within a second: resized reads such cgroups again at most that often.
    EXPECT_TRUE(waitForCpuAllocated(before + 500)) << "CpuAllocatedMillis reads " << bus().cpuAllocatedMillis();
}

// The container stays under its new name's limits from the rename on.
TEST_F(LifecycleBudgetTest, AContainerRenamedToAKnownWorkloadGetsItsLimitsAtOnce)
{
    startDaemon();
    const std::string known = nameFor("known");
    {
        const ScopedContainer first(podman(), known);
        bus().updateResources(known, desired);
    }
    const ScopedContainer other(podman(), nameFor("other"));
    const auto cgroupPath = other.cgroupPath();

    podmanOrThrow({"rename", other.name(), known});
    const bool applied = waitForLimits(cgroupPath, desired);
    podmanOrThrow({"rename", known, other.name()});
    EXPECT_TRUE(applied);
}

} // namespace
} // namespace resized::integration::events
