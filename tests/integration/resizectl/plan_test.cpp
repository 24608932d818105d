// The plan verbs end to end: plans submitted by resizectl to the real
// daemon change (or, dry, do not change) real containers' cgroups.

#include <fstream>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "resizectl_fixture.h"

namespace resized::ctl {
namespace {

using integration::CommandResult;
using integration::ScopedContainer;
using ::testing::ContainsRegex;
using ::testing::HasSubstr;
using ::testing::MatchesRegex;
using ::testing::StartsWith;

constexpr int kNoSuchPlan = 16;

TEST_F(ResizectlTest, APlanMovesCpuFromOneContainerToAnother)
{
    const ScopedContainer giver(podman(), containerName("giver"));
    const ScopedContainer taker(podman(), containerName("taker"));
    expectExit(resizectl({"set", giver.name(), "--cpus", "1"}), 0);
    expectExit(resizectl({"set", taker.name(), "--cpus", "500m"}), 0);

    const auto submitted =
        resizectl({"plan", "submit", "--wait", giver.name(), "cpus=500m", taker.name(), "CPUQuota=100%"});
    expectExit(submitted, 0);
    EXPECT_THAT(submitted.standardOutput, StartsWith("● plan "));
    EXPECT_THAT(submitted.standardOutput, HasSubstr("State: succeeded\n"));
    EXPECT_THAT(submitted.standardOutput, HasSubstr(giver.name() + ": cpu=500m\n"));
    EXPECT_THAT(submitted.standardOutput, HasSubstr(taker.name() + ": cpu=1\n"));
    EXPECT_EQ(cgroupCpuMillis(giver), 500u);
    EXPECT_EQ(cgroupCpuMillis(taker), 1000u);

    // The plan stays to be looked at, as it ended.
    const auto plans = resizectlJson({"plan", "list"});
    ASSERT_EQ(plans.size(), 1u);
    EXPECT_EQ(plans[0]["State"], "succeeded");
    EXPECT_EQ(plans[0]["Reason"], "");
    EXPECT_EQ(plans[0]["Changes"].size(), 2u);
    EXPECT_GT(plans[0]["FinishedAtUSec"].get<uint64_t>(), 0u);
    const std::string id = std::to_string(plans[0]["Id"].get<uint64_t>());
    const auto status = resizectlJson({"plan", "status", id});
    EXPECT_EQ(status["ObjectPath"], "/io/resized1/plan/" + id);
    EXPECT_EQ(status["Changes"][0]["Workload"], giver.name());
    EXPECT_EQ(status["Changes"][0]["Resources"]["CpuMillis"], 500u);
    const auto list = resizectl({"plan", "list"});
    expectExit(list, 0);
    EXPECT_THAT(list.standardOutput, ContainsRegex("^ID +STATE +REASON +SUBMITTED +FINISHED +CHANGES\n" + id +
                                                   " +succeeded +- +[0-9T:.-]+Z +[0-9T:.-]+Z +2\n"));
    EXPECT_THAT(list.standardOutput, HasSubstr("\n1 plan listed.\n"));
}

TEST_F(ResizectlTest, ADryRunPlanEndsAtOnceAndChangesNothing)
{
    const ScopedContainer web(podman(), containerName("web"));
    const ScopedContainer db(podman(), containerName("db"));
    expectExit(resizectl({"set", web.name(), "--cpus", "1", "--memory", "256Mi"}), 0);
    expectExit(resizectl({"set", db.name(), "--cpus", "500m"}), 0);

    const auto dry = resizectl({"plan", "submit", "--dry-run", web.name(), "cpus=500m", "memory=128Mi", db.name(),
                                "cpus=1"});
    expectExit(dry, 0);
    // Not "succeeded": nothing was applied.
    EXPECT_THAT(dry.standardOutput, HasSubstr("State: dry-run\n"));
    EXPECT_THAT(resizectl({"plan", "list"}).standardOutput, ContainsRegex("\n[0-9]+ +dry-run +- "));
    EXPECT_EQ(resizectlJson({"plan", "list"})[0]["State"], "succeeded");
    EXPECT_EQ(cgroupCpuMillis(web), 1000u);
    EXPECT_EQ(cgroupMemoryLimit(web), 256u << 20);
    EXPECT_EQ(cgroupCpuMillis(db), 500u);
    EXPECT_EQ(resizectlJson({"status", web.name()})[0]["Desired"]["CpuMillis"], 1000u);
}

TEST_F(ResizectlTest, AnUnknownPlanIsStatus16)
{
    const auto status = resizectl({"plan", "status", "424242"});
    expectExit(status, kNoSuchPlan);
    EXPECT_THAT(status.standardError, StartsWith("resizectl: "));
    expectExit(resizectl({"plan", "cancel", "424242"}), kNoSuchPlan);
}

TEST_F(ResizectlTest, ADelayedPlanCanBeCancelledAndChangesNothing)
{
    const ScopedContainer web(podman(), containerName("web"));
    expectExit(resizectl({"set", web.name(), "--cpus", "1"}), 0);

    const auto submitted = resizectl({"plan", "submit", "--delay", "1h", web.name(), "cpus=2"});
    expectExit(submitted, 0);
    // The id alone, for scripts.
    ASSERT_THAT(submitted.standardOutput, MatchesRegex("[0-9]+\n"));
    const std::string id = submitted.standardOutput.substr(0, submitted.standardOutput.size() - 1);
    EXPECT_EQ(resizectlJson({"plan", "status", id})["State"], "pending");

    expectExit(resizectl({"plan", "cancel", id}), 0);
    const auto cancelled = resizectlJson({"plan", "status", id});
    EXPECT_EQ(cancelled["State"], "cancelled");
    EXPECT_GT(cancelled["FinishedAtUSec"].get<uint64_t>(), 0u);
    const auto shown = resizectl({"plan", "status", id});
    expectExit(shown, 0);
    EXPECT_THAT(shown.standardOutput, HasSubstr("State: cancelled\n"));
    EXPECT_EQ(cgroupCpuMillis(web), 1000u);
}

TEST_F(ResizectlTest, APlanFileIsSubmittedAsItsChangesSay)
{
    const ScopedContainer web(podman(), containerName("web"));
    const std::string file = ::testing::TempDir() + "/plan.json";
    {
        std::ofstream out(file);
        out << R"({"Changes": [{"Workload": ")" << web.name() << R"(", "Resources": {"CpuMillis": 750}}]})";
    }
    expectExit(resizectl({"plan", "submit", "--wait", "--file", file}), 0);
    EXPECT_EQ(cgroupCpuMillis(web), 750u);
}

}  // namespace
}  // namespace resized::ctl
