// Pools (design.md §1b): a cap on the sum of the members' allocations,
// admitted after the node's budget, membership by label or option, over the
// real bus with real containers.

#include "daemon_test.h"
#include "properties_recorder.h"

#include "support/wait.h"

#include <gtest/gtest.h>

#include <chrono>
#include <ctime>
#include <deque>
#include <functional>
#include <limits>
#include <iomanip>
#include <optional>
#include <sstream>
#include <string>

namespace resized::integration
{
namespace
{

using sdbus::Variant;

constexpr auto bound = std::chrono::seconds(30);

// "2026-12-05 03:10:00 UTC"; throws std::runtime_error for anything else.
std::chrono::system_clock::time_point parseUtcTime(const std::string& text)
{
    std::tm utc{};
    std::istringstream stream(text);
    stream >> std::get_time(&utc, "%Y-%m-%d %H:%M:%S UTC");
    if (stream.fail() || stream.peek() != std::char_traits<char>::eof())
    {
        throw std::runtime_error("not a UTC time: \"" + text + "\"");
    }
    return std::chrono::system_clock::from_time_t(timegm(&utc));
}
const std::string poolLabel = "--label=io.resized1.pool=batch";

class PoolTest : public DaemonTest
{
  protected:
    Dictionary batch() { return client().poolProperties(batchPath()); }
    static sdbus::ObjectPath batchPath() { return sdbus::ObjectPath("/io/resized1/pool/batch"); }
    static Dictionary cpuCap(std::uint64_t millis) { return {{"CpuMillis", Variant(millis)}}; }
    static Dictionary inPool(const std::string& pool) { return {{"Pool", Variant(pool)}}; }

    // Pools "big" and "small", and `holder` holding every CPU of the node
    // until leaveRoom().
    void twoPoolsOnAFullNode(const ScopedContainer& holder)
    {
        client().setPool("big", {});
        client().setPool("small", {});
        client().updateResources(holder.name(), ResourceValues{.cpuMillis = cpuCapacity()});
    }
    // Containers labelled for pool "big": big1, big2…
    std::deque<ScopedContainer> bigPoolMembers(int count)
    {
        std::deque<ScopedContainer> members;
        for (int index = 1; index <= count; ++index)
            members.emplace_back(podman(), containerName("big" + std::to_string(index)),
                                 std::vector<std::string>{bigLabel});
        return members;
    }
    // Lowers the holder so that `millis` of the node's CPU are free.
    void leaveRoom(const ScopedContainer& holder, std::uint64_t millis)
    {
        client().updateResources(holder.name(), ResourceValues{.cpuMillis = cpuCapacity() - millis});
    }
    static std::function<bool()> holds100(const ScopedContainer& container)
    {
        return [&container] { return CgroupLimits::read(container.cgroupPath()).cpuMillis() == 100U; };
    }

    const Dictionary defer{{"Defer", Variant(true)}};
    const std::string bigLabel = "--label=io.resized1.pool=big";
    const std::string smallLabel = "--label=io.resized1.pool=small";
};

// A pool whose budget allows no disruption in a window of an hour opened by
// `schedule` on the clock of `zone`.
Dictionary noDisruptionsInAWindow(const std::string& schedule, const std::string& zone)
{
    const Dictionary budget{{"Value", Variant("0")},
                            {"Schedule", Variant(schedule)},
                            {"DurationUSec", Variant(std::uint64_t{3'600'000'000})},
                            {"TimeZone", Variant(zone)}};
    return {{"Budgets", Variant(std::vector<Dictionary>{budget})}};
}

// A pool whose budget allows one manual disruption per `period`.
Dictionary oneDisruptionPer(std::chrono::microseconds period)
{
    const Dictionary budget{{"Value", Variant("1")},
                            {"PeriodUSec", Variant(static_cast<std::uint64_t>(period.count()))},
                            {"Reasons", Variant(std::vector<std::string>{"manual"})}};
    return {{"Budgets", Variant(std::vector<Dictionary>{budget})}};
}

TEST_F(PoolTest, APoolCapRefusesAMemberWhileTheNodeHasRoom)
{
    client().setPool("batch", cpuCap(500));
    const auto first = runContainer("first", {poolLabel});
    const auto second = runContainer("second", {poolLabel});
    client().updateResources(first.name(), ResourceValues{.cpuMillis = 300});
    ASSERT_GT(cpuCapacity(), 1000U);

    const auto refused = errorOf([&] { client().updateResources(second.name(), ResourceValues{.cpuMillis = 300}); });

    ASSERT_TRUE(refused);
    EXPECT_EQ(refused->getName(), "io.resized1.Error.InsufficientResources");
    EXPECT_EQ(refused->getMessage(), "pool batch: asked 300m more CPU, 200m available in the pool");
    EXPECT_NE(CgroupLimits::read(second.cgroupPath()).cpuMillis(), 300U);
    EXPECT_EQ(entryOf<std::uint64_t>(batch(), "CpuAllocatedMillis"), 300U);
    // Inside the cap it passes, and the pool counts both.
    client().updateResources(second.name(), ResourceValues{.cpuMillis = 200});
    EXPECT_EQ(CgroupLimits::read(second.cgroupPath()).cpuMillis(), 200U);
    const Dictionary pool = batch();
    EXPECT_EQ(entryOf<std::uint64_t>(pool, "CpuAllocatedMillis"), 500U);
    EXPECT_EQ(entryOf<std::uint64_t>(pool, "CpuCapacityMillis"), 500U);
    EXPECT_EQ(entryOf<std::vector<std::string>>(pool, "Members"),
              (std::vector<std::string>{first.name(), second.name()}));
    EXPECT_EQ(entryOf<std::string>(client().getResourceStatus(second.name()), "Pool"), "batch");
}

TEST_F(PoolTest, TheOptionJoinsAPoolDurablyAndWinsOverTheLabel)
{
    client().setPool("batch", cpuCap(400));
    client().setPool("web", cpuCap(2000));
    const auto labelled = runContainer("labelled", {poolLabel});
    const auto unlabelled = runContainer("unlabelled");

    // An explicit option takes the labelled container out of batch.
    client().updateResources(labelled.name(), ResourceValues{.cpuMillis = 900}, inPool("web"));
    client().updateResources(unlabelled.name(), ResourceValues{.cpuMillis = 300}, inPool("batch"));
    // A later update without the option keeps the membership chosen.
    const auto refused = errorOf([&] { client().updateResources(unlabelled.name(), ResourceValues{.cpuMillis = 500}); });

    ASSERT_TRUE(refused);
    EXPECT_EQ(refused->getName(), "io.resized1.Error.Infeasible");
    EXPECT_EQ(entryOf<std::string>(client().getResourceStatus(labelled.name()), "Pool"), "web");
    EXPECT_EQ(entryOf<std::vector<std::string>>(batch(), "Members"), std::vector<std::string>{unlabelled.name()});
    // Kept across a restart of the daemon.
    daemon().stop();
    startDaemon();
    EXPECT_EQ(entryOf<std::string>(client().getResourceStatus(unlabelled.name()), "Pool"), "batch");
    EXPECT_EQ(entryOf<std::uint64_t>(batch(), "CpuAllocatedMillis"), 300U);
    // "" leaves the pool.
    client().updateResources(unlabelled.name(), ResourceValues{.cpuMillis = 500}, inPool(""));
    EXPECT_EQ(CgroupLimits::read(unlabelled.cgroupPath()).cpuMillis(), 500U);
    EXPECT_EQ(entryOf<std::uint64_t>(batch(), "CpuAllocatedMillis"), 0U);
}

TEST_F(PoolTest, AnUnknownPoolOrABadSpecIsRefusedAndChangesNothing)
{
    const auto container = runContainer("c");

    const auto noPool = errorOf([&] {
        client().updateResources(container.name(), ResourceValues{.cpuMillis = 300}, inPool("nosuch"));
    });
    const auto badName = errorOf([&] { client().setPool("no/slash", cpuCap(100)); });
    const auto budgets = errorOf([&] {
        client().setPool("batch", {{"Budgets", Variant(std::vector<Dictionary>{{{"Value", Variant("101%")}}})}});
    });
    const auto removeMissing = errorOf([&] { client().removePool("nosuch"); });
    const auto badSchedule = errorOf([&] { client().setPool("batch", noDisruptionsInAWindow("0 25 * * *", "UTC")); });
    const auto unknownZone = errorOf([&] { client().setPool("batch", noDisruptionsInAWindow("@daily", "Mars/Olympus")); });

    ASSERT_TRUE(noPool);
    EXPECT_EQ(noPool->getName(), "io.resized1.Error.NoSuchPool");
    EXPECT_NE(CgroupLimits::read(container.cgroupPath()).cpuMillis(), 300U);
    ASSERT_TRUE(badName);
    EXPECT_EQ(badName->getName(), "io.resized1.Error.InvalidArgument");
    ASSERT_TRUE(budgets);
    EXPECT_EQ(budgets->getName(), "io.resized1.Error.InvalidArgument");
    ASSERT_TRUE(removeMissing);
    EXPECT_EQ(removeMissing->getName(), "io.resized1.Error.NoSuchPool");
    ASSERT_TRUE(badSchedule);
    EXPECT_EQ(badSchedule->getName(), "io.resized1.Error.InvalidArgument");
    EXPECT_EQ(badSchedule->getMessage(), "the cron schedule's hour field \"25\" has 25, outside 0–23");
    ASSERT_TRUE(unknownZone);
    EXPECT_EQ(unknownZone->getName(), "io.resized1.Error.InvalidArgument");
    EXPECT_EQ(unknownZone->getMessage(),
              "the time zone database knows no \"Mars/Olympus\" (an IANA name such as \"Europe/Berlin\")");
    EXPECT_TRUE(client().listPools().empty());
    EXPECT_EQ(callAsNobody({"SetPool", "batch"}), "org.freedesktop.DBus.Error.AccessDenied");
    EXPECT_EQ(callAsNobody({"ListPools"}), "ok");
}

TEST_F(PoolTest, RaisingTheCapLetsADeferredMemberInAndRemovingThePoolFreesItsMembers)
{
    client().setPool("batch", cpuCap(500));
    const auto holder = runContainer("holder", {poolLabel});
    const auto container = runContainer("c", {poolLabel});
    client().updateResources(holder.name(), ResourceValues{.cpuMillis = 300});

    const Dictionary deferred =
        client().updateResources(container.name(), ResourceValues{.cpuMillis = 300}, {{"Defer", Variant(true)}});
    EXPECT_EQ(entryOf<std::string>(deferred, "UpdateState"), "deferred");
    client().setPool("batch", cpuCap(1000));

    const auto applied = [&] { return CgroupLimits::read(container.cgroupPath()).cpuMillis() == 300U; };
    EXPECT_TRUE(waitUntil(applied, bound));
    EXPECT_TRUE(waitUntil([&] { return entryOf<std::uint64_t>(batch(), "CpuAllocatedMillis") == 600U; }, bound));

    client().removePool("batch");
    EXPECT_TRUE(client().listPools().empty());
    EXPECT_FALSE(client().managedObjects().contains(batchPath()));
    EXPECT_EQ(CgroupLimits::read(container.cgroupPath()).cpuMillis(), 300U);
    // The label names no pool now: nothing caps it but the node.
    client().updateResources(container.name(), ResourceValues{.cpuMillis = 1100});
    EXPECT_EQ(CgroupLimits::read(container.cgroupPath()).cpuMillis(), 1100U);
}

// design.md §1b: freed capacity goes round-robin by pool; oldest first
// across the node would give both chances below to the big pool.
TEST_F(PoolTest, ASmallPoolsDeferredChangeIsServedWhileABigPoolKeepsAsking)
{
    const auto holder = runContainer("holder");
    twoPoolsOnAFullNode(holder);
    const auto big = bigPoolMembers(3);
    const auto small = runContainer("small1", {smallLabel});
    for (const auto& container : big)
        client().updateResources(container.name(), ResourceValues{.cpuMillis = 100}, defer);
    client().updateResources(small.name(), ResourceValues{.cpuMillis = 100}, defer);

    // Room for one: the round begins with the first pool, big.
    leaveRoom(holder, 100);
    ASSERT_TRUE(waitUntil(holds100(big[0]), bound));
    // Room for one more: small's turn, though big asked first.
    leaveRoom(holder, 200);

    EXPECT_TRUE(waitUntil(holds100(small), bound));
    EXPECT_EQ(entryOf<std::string>(client().getResourceStatus(big[1].name()), "UpdateState"), "deferred");
    EXPECT_EQ(entryOf<std::string>(client().getResourceStatus(big[2].name()), "UpdateState"), "deferred");
}

// A plan that waits with Defer takes its pool's turn as an update does. On a
// timer of its own, it would come after the big pool's next update had
// taken the room.
TEST_F(PoolTest, ASmallPoolsDeferredPlanIsServedInItsTurnWhileABigPoolKeepsAsking)
{
    const auto holder = runContainer("holder");
    twoPoolsOnAFullNode(holder);
    const auto big = bigPoolMembers(2);
    const auto small = runContainer("small1", {smallLabel});
    const auto plan = client().submitPlan({{small.name(), ResourceValues{.cpuMillis = 100}.toDictionary()}}, defer);
    for (const auto& container : big)
        client().updateResources(container.name(), ResourceValues{.cpuMillis = 100}, defer);

    // Room for one: the round begins with the first pool, big.
    leaveRoom(holder, 100);
    ASSERT_TRUE(waitUntil(holds100(big[0]), bound));
    EXPECT_EQ(entryOf<std::string>(client().planProperties(plan), "State"), "pending");
    // Room for one more: small's turn, which its plan takes.
    leaveRoom(holder, 200);

    EXPECT_TRUE(waitUntil(
        [&] { return entryOf<std::string>(client().planProperties(plan), "State") == "succeeded"; }, bound));
    EXPECT_EQ(CgroupLimits::read(small.cgroupPath()).cpuMillis(), 100U);
    EXPECT_EQ(entryOf<std::string>(client().getResourceStatus(big[1].name()), "UpdateState"), "deferred");
}

// A label makes a member: a container resized does not manage counts in the
// pool its label names at what its cgroup holds, as it counts on the node.
TEST_F(PoolTest, AContainerResizedDoesNotManageCountsInThePoolItsLabelNames)
{
    client().setPool("batch", cpuCap(500));
    const auto unmanaged = runContainer("unmanaged", {poolLabel, "--cpus=0.3"});
    const auto member = runContainer("member", {poolLabel});
    ASSERT_TRUE(waitUntil([&] { return entryOf<std::uint64_t>(batch(), "CpuAllocatedMillis") == 300U; }, bound));
    // Counted in the pool, so listed as members (the member holding no limit
    // once its start is handled): neither is managed yet.
    const std::vector<std::string> bothMembers{member.name(), unmanaged.name()};
    EXPECT_TRUE(waitUntil(
        [&] { return entryOf<std::vector<std::string>>(batch(), "Members") == bothMembers; }, bound));

    const auto refused = errorOf([&] { client().updateResources(member.name(), ResourceValues{.cpuMillis = 300}); });

    ASSERT_TRUE(refused);
    EXPECT_EQ(refused->getName(), "io.resized1.Error.InsufficientResources");
    EXPECT_EQ(refused->getMessage(), "pool batch: asked 300m more CPU, 200m available in the pool");
    client().updateResources(member.name(), ResourceValues{.cpuMillis = 200});
    EXPECT_EQ(entryOf<std::uint64_t>(batch(), "CpuAllocatedMillis"), 500U);
}

TEST_F(PoolTest, ASecondShrinkInsideTheBudgetsPeriodIsRefusedWhileGrowthPasses)
{
    client().setPool("batch", oneDisruptionPer(std::chrono::hours(1)));
    // Created at 400m: a first limit below "none" would count as a
    // disruption itself.
    const auto first = runContainer("first", {poolLabel, "--cpus=0.4"});
    const auto second = runContainer("second", {poolLabel, "--cpus=0.4"});
    EXPECT_EQ(entryOf<std::uint32_t>(batch(), "AllowedDisruptions"), 1U);
    EXPECT_NE(client().getMetrics().find("\nresized_pool_allowed_disruptions{pool=\"batch\"} 1\n"), std::string::npos);

    const auto beforeFirst = std::chrono::system_clock::now();
    client().updateResources(first.name(), ResourceValues{.cpuMillis = 300});
    const auto afterFirst = std::chrono::system_clock::now();
    const auto refused = errorOf([&] { client().updateResources(second.name(), ResourceValues{.cpuMillis = 300}); });

    ASSERT_TRUE(refused);
    EXPECT_EQ(refused->getName(), "io.resized1.Error.BudgetExhausted");
    // The first shrink leaves the budget's period an hour after it was made.
    const std::string refusal = "pool batch: its disruption budgets allow no more manual disruptions now; "
                                "they allow the next from ";
    ASSERT_EQ(refused->getMessage().substr(0, refusal.size()), refusal) << refused->getMessage();
    const auto allowedAt = parseUtcTime(refused->getMessage().substr(refusal.size()));
    EXPECT_GE(allowedAt, std::chrono::floor<std::chrono::seconds>(beforeFirst + std::chrono::hours(1)));
    EXPECT_LE(allowedAt, afterFirst + std::chrono::hours(1));
    EXPECT_EQ(CgroupLimits::read(second.cgroupPath()).cpuMillis(), 400U);
    EXPECT_EQ(entryOf<std::uint32_t>(batch(), "AllowedDisruptions"), 0U);
    client().updateResources(second.name(), ResourceValues{.cpuMillis = 500});
    EXPECT_EQ(CgroupLimits::read(second.cgroupPath()).cpuMillis(), 500U);
    // The shrink counts, the refused one and the growth do not.
    const std::string metrics = client().getMetrics();
    EXPECT_NE(metrics.find("\nresized_pool_disruptions_total{pool=\"batch\",reason=\"manual\"} 1\n"), std::string::npos)
        << metrics;
    EXPECT_NE(metrics.find("\nresized_pool_allowed_disruptions{pool=\"batch\"} 0\n"), std::string::npos) << metrics;
    // Counted from the state file: a restart does not reset the budget.
    daemon().stop();
    startDaemon();
    const auto afterRestart =
        errorOf([&] { client().updateResources(second.name(), ResourceValues{.memoryMax = 128 * mebibyte}); });
    ASSERT_TRUE(afterRestart);
    EXPECT_EQ(afterRestart->getName(), "io.resized1.Error.BudgetExhausted");
}

TEST_F(PoolTest, AShrinkDeferredByTheBudgetRunsWhenItsPeriodHasPassed)
{
    client().setPool("batch", oneDisruptionPer(std::chrono::seconds(2)));
    const auto first = runContainer("first", {poolLabel, "--cpus=0.4"});
    const auto second = runContainer("second", {poolLabel, "--cpus=0.4"});
    client().updateResources(first.name(), ResourceValues{.cpuMillis = 300});

    const Dictionary deferred =
        client().updateResources(second.name(), ResourceValues{.cpuMillis = 300}, {{"Defer", Variant(true)}});

    EXPECT_EQ(entryOf<std::string>(deferred, "UpdateState"), "deferred");
    EXPECT_TRUE(waitUntil([&] { return CgroupLimits::read(second.cgroupPath()).cpuMillis() == 300U; }, bound));
}

// A container created again under a known name with another pool's label
// joins that pool by admission, as a change of pool over the bus does: its
// allocation does not move into a full pool unchecked.
TEST_F(PoolTest, AContainerReCreatedWithAnotherPoolsLabelIsAdmittedIntoThatPool)
{
    client().setPool("web", {});
    client().setPool("batch", cpuCap(400));
    const auto member = runContainer("member", {poolLabel});
    client().updateResources(member.name(), ResourceValues{.cpuMillis = 200});
    const std::string name = containerName("moving");
    std::optional<ScopedContainer> moving;
    moving.emplace(podman(), name, std::vector<std::string>{"--label=io.resized1.pool=web"});
    client().updateResources(name, ResourceValues{.cpuMillis = 300});

    moving.reset();
    moving.emplace(podman(), name, std::vector<std::string>{poolLabel});

    ASSERT_TRUE(waitUntil(
        [&] { return entryOf<std::string>(client().getResourceStatus(name), "UpdateState") == "deferred"; }, bound));
    const auto status = client().getResourceStatus(name);
    EXPECT_EQ(entryOf<std::string>(status, "ContainerId"), moving->id());
    EXPECT_EQ(entryOf<std::string>(status, "Pool"), "batch");
    EXPECT_EQ(entryOf<std::uint64_t>(batch(), "CpuAllocatedMillis"), 200U);
    // It fits once the other member makes room.
    client().updateResources(member.name(), ResourceValues{.cpuMillis = 100});
    EXPECT_TRUE(waitUntil([&] { return CgroupLimits::read(moving->cgroupPath()).cpuMillis() == 300U; }, bound));
    EXPECT_EQ(entryOf<std::uint64_t>(batch(), "CpuAllocatedMillis"), 400U);
}

// design.md §1b: AllowedDisruptions comes with PropertiesChanged, also when
// it changes with time alone and no workload does anything.
TEST_F(PoolTest, AllowedDisruptionsIsAnnouncedWhenADisruptionLeavesItsBudgetsPeriod)
{
    client().setPool("batch", oneDisruptionPer(std::chrono::seconds(2)));
    const auto container = runContainer("c", {poolLabel, "--cpus=0.4"});
    const PropertiesRecorder properties(batchPath(), "io.resized1.Pool");

    client().updateResources(container.name(), ResourceValues{.cpuMillis = 300});

    EXPECT_TRUE(properties.waitForValue("AllowedDisruptions", std::uint64_t{0}, bound));
    EXPECT_TRUE(properties.waitForValue("AllowedDisruptions", std::uint64_t{1}, bound));
    EXPECT_EQ(properties.valuesOf("AllowedDisruptions"), (std::vector<PropertyValue>{std::uint64_t{0}, std::uint64_t{1}}));
}

// design.md §1b: a budget with a cron window applies only inside it.
TEST_F(PoolTest, ABudgetAppliesOnlyInsideItsCronWindow)
{
    // Opened every minute: in force now, whatever the time in Berlin.
    client().setPool("batch", noDisruptionsInAWindow("* * * * *", "Europe/Berlin"));
    const auto container = runContainer("c", {poolLabel, "--cpus=0.4"});
    EXPECT_EQ(entryOf<std::uint32_t>(batch(), "AllowedDisruptions"), 0U);
    const auto refused = errorOf([&] { client().updateResources(container.name(), ResourceValues{.cpuMillis = 300}); });
    ASSERT_TRUE(refused);
    EXPECT_EQ(refused->getName(), "io.resized1.Error.BudgetExhausted");
    EXPECT_EQ(CgroupLimits::read(container.cgroupPath()).cpuMillis(), 400U);

    // Opened for an hour twelve hours from now on UTC's clock: closed now.
    const auto now = std::chrono::system_clock::now();
    const std::chrono::hh_mm_ss time{now - std::chrono::floor<std::chrono::days>(now)};
    const auto later = (time.hours().count() + 12) % 24;
    client().setPool("batch", noDisruptionsInAWindow("0 " + std::to_string(later) + " * * *", "UTC"));
    EXPECT_EQ(entryOf<std::uint32_t>(batch(), "AllowedDisruptions"), std::numeric_limits<std::uint32_t>::max());
    client().updateResources(container.name(), ResourceValues{.cpuMillis = 300});
    EXPECT_EQ(CgroupLimits::read(container.cgroupPath()).cpuMillis(), 300U);
}

TEST_F(PoolTest, PoolObjectsArePublishedAndListed)
{
    client().setPool("batch", {{"CpuMillis", Variant(std::uint64_t{1500})},
                               {"MemoryMax", Variant(std::uint64_t{512 * mebibyte})}});
    // A change of one cap keeps the other.
    client().setPool("batch", cpuCap(1200));

    const auto pools = client().listPools();
    ASSERT_EQ(pools.size(), 1U);
    EXPECT_EQ(pools[0].get<0>(), "batch");
    EXPECT_EQ(pools[0].get<1>(), batchPath());
    const Dictionary pool = batch();
    EXPECT_EQ(entryOf<std::string>(pool, "Name"), "batch");
    EXPECT_EQ(entryOf<std::uint64_t>(pool, "CpuCapacityMillis"), 1200U);
    EXPECT_EQ(entryOf<std::uint64_t>(pool, "MemoryCapacity"), 512 * mebibyte);
    EXPECT_EQ(entryOf<std::uint32_t>(pool, "AllowedDisruptions"), std::numeric_limits<std::uint32_t>::max());
    EXPECT_TRUE(client().managedObjects().at(batchPath()).contains(poolInterface));
}

// Budgets shows every key of SetPool's, those not given with the values
// SetPool assumed, and changes with PropertiesChanged.
TEST_F(PoolTest, TheBudgetsPropertyShowsWhatSetPoolGaveWithEveryKey)
{
    client().setPool("batch", cpuCap(1000));
    EXPECT_TRUE(entryOf<std::vector<Dictionary>>(batch(), "Budgets").empty());
    const PropertiesRecorder changes(batchPath(), poolInterface);

    const auto inAWindow = entryOf<std::vector<Dictionary>>(
        noDisruptionsInAWindow("0 9 * * mon-fri", "Europe/Berlin"), "Budgets");
    auto budgets = entryOf<std::vector<Dictionary>>(oneDisruptionPer(std::chrono::minutes(10)), "Budgets");
    budgets.push_back(inAWindow.front());
    client().setPool("batch", {{"Budgets", Variant(budgets)}});

    const auto shown = entryOf<std::vector<Dictionary>>(batch(), "Budgets");
    ASSERT_EQ(shown.size(), 2U);
    EXPECT_EQ(entryOf<std::string>(shown[0], "Value"), "1");
    EXPECT_EQ(entryOf<std::uint64_t>(shown[0], "PeriodUSec"), 600'000'000U);
    EXPECT_EQ(entryOf<std::vector<std::string>>(shown[0], "Reasons"), std::vector<std::string>{"manual"});
    EXPECT_EQ(entryOf<std::string>(shown[0], "Schedule"), "");
    EXPECT_EQ(entryOf<std::uint64_t>(shown[0], "DurationUSec"), 0U);
    EXPECT_EQ(entryOf<std::string>(shown[0], "TimeZone"), "UTC");
    EXPECT_EQ(entryOf<std::string>(shown[1], "Value"), "0");
    EXPECT_EQ(entryOf<std::uint64_t>(shown[1], "PeriodUSec"), 0U);
    EXPECT_TRUE(entryOf<std::vector<std::string>>(shown[1], "Reasons").empty());
    EXPECT_EQ(entryOf<std::string>(shown[1], "Schedule"), "0 9 * * mon-fri");
    EXPECT_EQ(entryOf<std::uint64_t>(shown[1], "DurationUSec"), 3'600'000'000U);
    EXPECT_EQ(entryOf<std::string>(shown[1], "TimeZone"), "Europe/Berlin");
    EXPECT_TRUE(waitUntil([&] { return changes.valuesOf("Budgets").size() == 1; }, bound));

    // What it shows can be given back as it is, which changes nothing.
    client().setPool("batch", {{"Budgets", Variant(shown)}});
    const auto givenBack = entryOf<std::vector<Dictionary>>(batch(), "Budgets");
    ASSERT_EQ(givenBack.size(), 2U);
    EXPECT_EQ(entryOf<std::string>(givenBack[0], "Schedule"), "");
    EXPECT_EQ(entryOf<std::string>(givenBack[1], "Schedule"), "0 9 * * mon-fri");

    // A cap alone keeps them; an empty list clears them.
    client().setPool("batch", cpuCap(2000));
    EXPECT_EQ(entryOf<std::vector<Dictionary>>(batch(), "Budgets").size(), 2U);
    client().setPool("batch", {{"Budgets", Variant(std::vector<Dictionary>{})}});
    EXPECT_TRUE(entryOf<std::vector<Dictionary>>(batch(), "Budgets").empty());
    EXPECT_TRUE(waitUntil([&] { return changes.valuesOf("Budgets").size() == 2; }, bound));
}

} // namespace
} // namespace resized::integration
