// The pool verbs end to end: a pool made and shown by resizectl caps what
// the real daemon admits for a real container that joined it with --pool.

#include <chrono>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "resizectl_fixture.h"
#include "support/wait.h"

namespace resized::ctl {
namespace {

using integration::CommandResult;
using integration::ScopedContainer;
using ::testing::HasSubstr;
using ::testing::MatchesRegex;
using ::testing::Not;
using ::testing::StartsWith;

constexpr int kInsufficientResources = 6;
constexpr int kInfeasible = 7;
constexpr int kNoSuchPool = 14;
constexpr int kBudgetExhausted = 15;
constexpr auto kDeadline = std::chrono::seconds(30);
const std::string kBatchLabel = "io.resized1.pool=batch";

TEST_F(ResizectlTest, APoolCapsItsMembersUntilTheyLeaveOrItIsRemoved)
{
    const ScopedContainer container(podman(), containerName());
    const ScopedContainer other(podman(), containerName("other"));
    expectExit(resizectl({"pool", "set", "batch", "--cpus", "1", "--memory", "1g"}), 0);
    // A change of one cap keeps the other.
    expectExit(resizectl({"pool", "set", "batch", "--cpu", "500m"}), 0);

    const auto joined = resizectl({"set", container.name(), "--cpus", "300m", "--memory", "64Mi", "--pool", "batch"});
    expectExit(joined, 0);
    EXPECT_THAT(joined.standardOutput, HasSubstr("Pool: batch\n"));
    EXPECT_EQ(cgroupCpuMillis(container), 300u);

    // The node has room; the pool has not. Refused, the other joins nothing.
    const auto refused = resizectl({"set", other.name(), "--cpus", "300m", "--pool", "batch"});
    expectExit(refused, kInsufficientResources);
    // Led by the option it is about.
    EXPECT_THAT(refused.standardError, StartsWith("resizectl: --cpus 300m: pool batch: "));
    EXPECT_EQ(cgroupCpuMillis(other), std::nullopt);
    // More than the cap itself can never be admitted.
    expectExit(resizectl({"set", container.name(), "--cpus", "600m"}), kInfeasible);
    EXPECT_EQ(cgroupCpuMillis(container), 300u);

    const auto list = resizectl({"pool", "list"});
    expectExit(list, 0);
    EXPECT_EQ(list.standardOutput, "NAME  CPU       MEMORY   MEMBERS\n"
                                   "batch 300m/500m 64Mi/1Gi 1\n"
                                   "\n"
                                   "1 pool listed.\n");
    const auto listed = resizectlJson({"pool", "list"});
    ASSERT_EQ(listed.size(), 1u);
    EXPECT_EQ(listed[0]["Name"], "batch");
    EXPECT_EQ(listed[0]["ObjectPath"], "/io/resized1/pool/batch");
    EXPECT_EQ(listed[0]["CpuCapacityMillis"], 500u);
    EXPECT_EQ(listed[0]["MemoryCapacity"], 1u << 30);
    EXPECT_EQ(listed[0]["CpuAllocatedMillis"], 300u);
    EXPECT_EQ(listed[0]["MemoryAllocated"], 64u << 20);
    EXPECT_EQ(listed[0]["Members"], nlohmann::json::array({container.name()}));

    const auto status = resizectl({"pool", "status", "batch"});
    expectExit(status, 0);
    EXPECT_THAT(status.standardOutput, StartsWith("● batch\n"));
    EXPECT_THAT(status.standardOutput, HasSubstr("CPU: 300m of 500m allocated\n"));
    EXPECT_THAT(status.standardOutput, HasSubstr("Members: " + container.name() + "\n"));
    EXPECT_EQ(resizectlJson({"pool", "status", "batch"})["Members"], listed[0]["Members"]);

    // --pool '' leaves it, and the raise is the node's alone to admit.
    const auto left = resizectl({"set", container.name(), "--cpus", "600m", "--pool", ""});
    expectExit(left, 0);
    EXPECT_THAT(left.standardOutput, Not(HasSubstr("Pool:")));
    EXPECT_EQ(cgroupCpuMillis(container), 600u);
    EXPECT_EQ(resizectlJson({"pool", "status", "batch"})["Members"], nlohmann::json::array());

    expectExit(resizectl({"pool", "remove", "batch"}), 0);
    EXPECT_EQ(resizectlJson({"pool", "list"}), nlohmann::json::array());
    const auto again = resizectl({"pool", "remove", "batch"});
    expectExit(again, kNoSuchPool);
    EXPECT_EQ(again.standardError, "resizectl: no pool is named \"batch\"\n");
}

TEST_F(ResizectlTest, PoolSetReplacesTheBudgetsWhichPoolStatusShows)
{
    expectExit(resizectl({"pool", "set", "batch", "--cpus", "1"}), 0);
    // The window's budget counts autoscale only: manual changes see the
    // other one whatever the time in Berlin.
    expectExit(resizectl({"pool", "set", "batch", "--budget", "2,period=10min", "--budget",
                          "1,reasons=autoscale+plan,schedule=0 9 * * 1-5,duration=8h,timezone=Europe/Berlin"}),
               0);

    const auto status = resizectl({"pool", "status", "batch"});
    expectExit(status, 0);
    EXPECT_THAT(status.standardOutput, HasSubstr("CPU: 0 of 1 allocated\n"));
    EXPECT_THAT(status.standardOutput, HasSubstr("Budgets: 2 per 10min\n"));
    EXPECT_THAT(status.standardOutput,
                HasSubstr(" 1 at a time for autoscale, plan; schedule \"0 9 * * 1-5\" for 8h (Europe/Berlin)\n"));
    EXPECT_THAT(status.standardOutput, HasSubstr("Allowed disruptions: 2 now\n"));

    const auto budgets = resizectlJson({"pool", "status", "batch"})["Budgets"];
    EXPECT_EQ(budgets, nlohmann::json::parse(R"([
        {"Value": "2", "PeriodUSec": 600000000, "Reasons": [], "Schedule": "", "DurationUSec": 0,
         "TimeZone": "UTC"},
        {"Value": "1", "PeriodUSec": 0, "Reasons": ["autoscale", "plan"], "Schedule": "0 9 * * 1-5",
         "DurationUSec": 28800000000, "TimeZone": "Europe/Berlin"}])"));
    EXPECT_EQ(resizectlJson({"pool", "list"})[0]["Budgets"], budgets);

    // Given again, the budgets replace all of those before; the cap stays.
    expectExit(resizectl({"pool", "set", "batch", "--budget", "25%"}), 0);
    const auto replaced = resizectlJson({"pool", "status", "batch"});
    ASSERT_EQ(replaced["Budgets"].size(), 1u);
    EXPECT_EQ(replaced["Budgets"][0]["Value"], "25%");
    EXPECT_EQ(replaced["CpuCapacityMillis"], 1000u);
    // Not given, they stay.
    expectExit(resizectl({"pool", "set", "batch", "--cpus", "2"}), 0);
    EXPECT_EQ(resizectlJson({"pool", "status", "batch"})["Budgets"], replaced["Budgets"]);

    expectExit(resizectl({"pool", "set", "batch", "--no-budgets"}), 0);
    EXPECT_EQ(resizectlJson({"pool", "status", "batch"})["Budgets"], nlohmann::json::array());
    const auto cleared = resizectl({"pool", "status", "batch"});
    EXPECT_THAT(cleared.standardOutput, Not(HasSubstr("Budgets:")));
    EXPECT_THAT(cleared.standardOutput, Not(HasSubstr("Allowed disruptions:")));
}

TEST_F(ResizectlTest, ABudgetResizectlOrTheDaemonRefusesIsStatus4AndChangesNothing)
{
    expectExit(resizectl({"pool", "set", "batch", "--budget", "2"}), 0);
    const auto before = resizectlJson({"pool", "status", "batch"})["Budgets"];

    // The daemon reads the schedule, and says what is wrong with it.
    const auto badSchedule =
        resizectl({"pool", "set", "batch", "--budget", "1,schedule=0 25 * * *,duration=1h", "--cpus", "1"});
    expectExit(badSchedule, 4);
    EXPECT_THAT(badSchedule.standardError, StartsWith("resizectl: "));
    EXPECT_THAT(badSchedule.standardError, HasSubstr("hour field \"25\""));
    const auto badZone = resizectl({"pool", "set", "batch", "--budget", "1,schedule=@daily,duration=1h,timezone=Mars/Olympus"});
    expectExit(badZone, 4);
    EXPECT_THAT(badZone.standardError, HasSubstr("Mars/Olympus"));

    // resizectl reads the rest, before it asks anything.
    const auto badSpec = resizectl({"pool", "set", "batch", "--budget", "2,every=10min"});
    expectExit(badSpec, 4);
    EXPECT_EQ(badSpec.standardError, "resizectl: --budget: '2,every=10min' is not a budget: unknown key 'every' "
                                     "(keys: period, reasons, schedule, duration, timezone)\n");
    expectExit(resizectl({"pool", "set", "batch", "--budget", "1,period=soon"}), 4);

    const auto after = resizectlJson({"pool", "status", "batch"});
    EXPECT_EQ(after["Budgets"], before);
    EXPECT_EQ(after["CpuCapacityMillis"].get<uint64_t>(), UINT64_MAX);
}

TEST_F(ResizectlTest, AnUnknownPoolIsStatus14AndABadNameStatus4)
{
    const ScopedContainer container(podman(), containerName());

    const auto status = resizectl({"pool", "status", "nosuch"});
    expectExit(status, kNoSuchPool);
    EXPECT_EQ(status.standardError, "resizectl: no pool is named \"nosuch\"\n");
    expectExit(resizectl({"set", container.name(), "--cpus", "300m", "--pool", "nosuch"}), kNoSuchPool);
    EXPECT_EQ(cgroupCpuMillis(container), std::nullopt);
    expectExit(resizectl({"pool", "set", "no/slash"}), 4);
}

// A refusal by a budget says when waiting lets the change through, and how
// to wait.
TEST_F(ResizectlTest, ABudgetRefusalSaysWhenTheNextDisruptionIsAllowedAndHowToWait)
{
    expectExit(resizectl({"pool", "set", "batch", "--budget", "1,period=1h"}), 0);
    const ScopedContainer first(podman(), containerName("a"), {"--cpus", "0.4", "--label", kBatchLabel});
    const ScopedContainer second(podman(), containerName("b"), {"--cpus", "0.4", "--label", kBatchLabel});
    ASSERT_TRUE(daemon().waitForStartEvent(first.name()));
    ASSERT_TRUE(daemon().waitForStartEvent(second.name()));
    expectExit(resizectl({"set", first.name(), "--cpus", "300m"}), 0);

    const auto refused = resizectl({"set", second.name(), "--cpus", "300m"});

    expectExit(refused, kBudgetExhausted);
    EXPECT_THAT(refused.standardError,
                MatchesRegex("resizectl: pool batch: its disruption budgets allow no more manual "
                             "disruptions now; they allow the next from "
                             "[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2} UTC "
                             "\\(--defer queues the change until the budgets allow it\\)\n"));
    EXPECT_EQ(cgroupCpuMillis(second), 400u);
}

// A container labelled for the pool that resized does not manage counts in
// the pool: it is listed too, said to be unmanaged.
TEST_F(ResizectlTest, PoolStatusListsALabelledContainerResizedDoesNotManage)
{
    expectExit(resizectl({"pool", "set", "batch", "--cpus", "1"}), 0);
    const ScopedContainer managed(podman(), containerName("m"));
    const ScopedContainer unmanaged(podman(), containerName("u"),
                                    {"--cpus", "0.25", "--memory", "64m", "--label", kBatchLabel});
    ASSERT_TRUE(daemon().waitForStartEvent(unmanaged.name()));
    expectExit(resizectl({"set", managed.name(), "--cpus", "100m", "--memory", "32Mi", "--pool", "batch"}), 0);

    const std::string expected = "● batch\n"
                                 "        CPU: 350m of 1 allocated\n"
                                 "     Memory: 96Mi allocated, no cap\n"
                                 "    Members: " + managed.name() + "\n"
                                 "             " + unmanaged.name() + " (unmanaged)\n";
    CommandResult status;
    EXPECT_TRUE(integration::waitUntil(
        [&] {
            status = resizectl({"pool", "status", "batch"});
            return status.standardOutput == expected;
        },
        kDeadline))
        << status.standardOutput << status.standardError;
    EXPECT_EQ(resizectlJson({"pool", "status", "batch"})["Members"],
              nlohmann::json::array({managed.name(), unmanaged.name()}));
}

// A change deferred to join a pool has nothing to wait for once the pool is
// removed: it is withdrawn, as a --pool naming no pool is refused.
TEST_F(ResizectlTest, RemovingAPoolWithdrawsTheChangeDeferredToJoinIt)
{
    expectExit(resizectl({"pool", "set", "batch", "--cpus", "1"}), 0);
    const ScopedContainer holder(podman(), containerName("h"));
    const ScopedContainer joiner(podman(), containerName("j"));
    ASSERT_TRUE(daemon().waitForStartEvent(joiner.name()));
    expectExit(resizectl({"set", holder.name(), "--cpus", "800m", "--pool", "batch"}), 0);
    const auto deferred = resizectl({"set", joiner.name(), "--cpus", "500m", "--pool", "batch", "--defer"});
    expectExit(deferred, 0);
    ASSERT_THAT(deferred.standardOutput, HasSubstr("    Update state: deferred\n"));

    expectExit(resizectl({"pool", "remove", "batch"}), 0);

    const auto status = resizectl({"status", joiner.name()});
    expectExit(status, 0);
    EXPECT_THAT(status.standardOutput, HasSubstr("    Update state: failed\n"
                                                 "         Message: pool batch was removed while the change "
                                                 "waited to join it\n"));
    EXPECT_THAT(status.standardOutput, Not(HasSubstr("Pool:")));
    const auto newest = resizectlJson({"history", joiner.name(), "-n", "1"});
    ASSERT_EQ(newest.size(), 1u) << newest;
    EXPECT_EQ(newest[0]["Result"], "NoSuchPool");
    EXPECT_EQ(newest[0]["Message"], "pool batch was removed while the change waited to join it");
    EXPECT_EQ(cgroupCpuMillis(joiner), std::nullopt);
}

}  // namespace
}  // namespace resized::ctl
