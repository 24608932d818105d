#include <cstdlib>
#include <ctime>

#include <gtest/gtest.h>

#include "core/resources.h"
#include "resources_for_tests.h"
#include "events.h"
#include "node_format.h"
#include "plan_format.h"
#include "plan_request.h"
#include "pool_format.h"
#include "quantity_format.h"
#include "status_format.h"
#include "table.h"
#include "time_format.h"

namespace resized::ctl {
namespace {

using namespace std::chrono_literals;

// 2024-01-04 10:00:00 UTC
constexpr uint64_t kUpdatedAtUSec = 1'704'362'400'000'000;
const Clock::time_point kUpdatedAt{std::chrono::microseconds(kUpdatedAtUSec)};

class UtcTimeZone : public ::testing::Test {
protected:
    void SetUp() override
    {
        setenv("TZ", "UTC", 1);
        tzset();
    }
};

Dictionary exampleStatus()
{
    return Dictionary{
        {"Workload", sdbus::Variant(std::string("web"))},
        {"RunState", sdbus::Variant(std::string("running"))},
        {"ContainerId", sdbus::Variant(std::string("3f2a9c"))},
        {"CgroupPath", sdbus::Variant(std::string("/libpod_parent/libpod-3f2a9c"))},
        {"Driver", sdbus::Variant(std::string("cgroupfs-v1"))},
        {"Desired", sdbus::Variant(toDictionary(cpuAndMemory(1500, 512ull << 20)))},
        {"Actual", sdbus::Variant(toDictionary(cpuAndMemory(1000, 512ull << 20)))},
        {"SyncState", sdbus::Variant(std::string("drift_detected"))},
        {"UpdateState", sdbus::Variant(std::string("success"))},
        {"Message", sdbus::Variant(std::string("cpu changed behind our back"))},
        {"Generation", sdbus::Variant(uint64_t{4})},
        {"ObservedGeneration", sdbus::Variant(uint64_t{3})},
        {"UpdatedAtUSec", sdbus::Variant(kUpdatedAtUSec)},
    };
}

TEST(Table, PadsColumnsToTheWidestCell)
{
    Table table({"NAME", "SYNC"});
    table.addRow({"web", "synchronized"});
    table.addRow({"database", "failed"});

    EXPECT_EQ(table.render(true), "NAME     SYNC\n"
                                  "web      synchronized\n"
                                  "database failed\n");
    EXPECT_EQ(table.render(false), "web      synchronized\n"
                                   "database failed\n");
}

TEST(Table, RefusesARowOfTheWrongShape)
{
    Table table({"NAME", "SYNC"});
    EXPECT_THROW(table.addRow({"web"}), std::logic_error);
}

TEST(Timespan, ShowsTheTwoLargestUnits)
{
    EXPECT_EQ(formatTimespan(5s), "5s");
    EXPECT_EQ(formatTimespan(5min + 3s), "5min 3s");
    EXPECT_EQ(formatTimespan(2h + 1min + 7s), "2h 1min");
    EXPECT_EQ(formatTimespan(2h + 7s), "2h");
    EXPECT_EQ(formatTimespan(1500ms), "1s 500ms");
    EXPECT_EQ(formatTimespan(0s), "0s");
}

TEST_F(UtcTimeZone, TimestampIsLocalTimeAndAge)
{
    EXPECT_EQ(formatTimestamp(kUpdatedAtUSec, kUpdatedAt + 5min + 3s), "Thu 2024-01-04 10:00:00 UTC; 5min 3s ago");
    EXPECT_EQ(formatTimestamp(kUpdatedAtUSec, kUpdatedAt + 3s + 250ms), "Thu 2024-01-04 10:00:00 UTC; 3s ago");
    EXPECT_EQ(formatTimestamp(kUpdatedAtUSec, kUpdatedAt + 10ms + 22us), "Thu 2024-01-04 10:00:00 UTC; 10ms ago");
    EXPECT_EQ(formatTimestamp(0, kUpdatedAt), "n/a");
}

TEST(IsoTimestamp, IsUtcWithMicroseconds)
{
    EXPECT_EQ(formatIsoTimestamp(kUpdatedAt + 1234us), "2024-01-04T10:00:00.001234Z");
}

TEST_F(UtcTimeZone, StatusBlockShowsEveryField)
{
    EXPECT_EQ(formatStatusBlock(exampleStatus(), kUpdatedAt + 2s),
              "● web\n"
              "           State: running\n"
              "       Container: 3f2a9c\n"
              "          Cgroup: /libpod_parent/libpod-3f2a9c\n"
              "          Driver: cgroupfs-v1\n"
              "         Desired: cpu=1500m memory.max=512Mi\n"
              "          Actual: cpu=1 memory.max=512Mi\n"
              "      Sync state: drift_detected\n"
              "    Update state: success\n"
              "         Message: cpu changed behind our back\n"
              "      Generation: 4 (observed 3)\n"
              "         Updated: Thu 2024-01-04 10:00:00 UTC; 2s ago\n");
}

TEST(StatusBlock, LeavesOutAnEmptyMessageAndNamesMissingLimits)
{
    Dictionary status = exampleStatus();
    status["Message"] = sdbus::Variant(std::string());
    status["Desired"] = sdbus::Variant(Dictionary{});
    const std::string block = formatStatusBlock(status, kUpdatedAt);

    EXPECT_EQ(block.find("Message:"), std::string::npos);
    EXPECT_NE(block.find("Desired: none\n"), std::string::npos);
}

TEST(StatusBlock, ShowsThePoolOfAWorkloadInOne)
{
    Dictionary status = exampleStatus();
    status["Pool"] = sdbus::Variant(std::string("batch"));
    EXPECT_NE(formatStatusBlock(status, kUpdatedAt).find("Driver: cgroupfs-v1\n"
                                                         "            Pool: batch\n"
                                                         "         Desired: "),
              std::string::npos);

    status["Pool"] = sdbus::Variant(std::string());
    EXPECT_EQ(formatStatusBlock(status, kUpdatedAt).find("Pool:"), std::string::npos);
}

// A stopped container has no cgroup: no empty Cgroup line, and the limits
// last read are not shown as in force.
TEST_F(UtcTimeZone, StatusBlockOfAStoppedContainerShowsNoLimitsInForce)
{
    Dictionary status = exampleStatus();
    status["RunState"] = sdbus::Variant(std::string("stopped"));
    status["CgroupPath"] = sdbus::Variant(std::string());
    status["SyncState"] = sdbus::Variant(std::string("pending"));
    status["Message"] = sdbus::Variant(std::string());
    EXPECT_EQ(formatStatusBlock(status, kUpdatedAt),
              "● web\n"
              "           State: stopped\n"
              "       Container: 3f2a9c\n"
              "          Driver: cgroupfs-v1\n"
              "         Desired: cpu=1500m memory.max=512Mi\n"
              "          Actual: none in force (stopped)\n"
              "      Sync state: pending\n"
              "    Update state: success\n"
              "      Generation: 4 (observed 3)\n"
              "         Updated: Thu 2024-01-04 10:00:00 UTC; 0s ago\n");
}

// Deferred before the daemon read its cgroup: not "none", which would say
// the container runs without limits.
TEST(StatusBlock, SaysWhenTheLimitsOfARunningWorkloadWereNotReadYet)
{
    Dictionary status = exampleStatus();
    status["Actual"] = sdbus::Variant(Dictionary{});
    EXPECT_NE(formatStatusBlock(status, kUpdatedAt).find("Actual: not read yet\n"), std::string::npos);
}

TEST(FieldBlock, AlignsTheFurtherLinesOfAValueUnderItsFirst)
{
    EXPECT_EQ(formatFieldBlock("batch", {{"CPU", "1"}, {"Members", "web\ndb"}}),
              "● batch\n"
              "        CPU: 1\n"
              "    Members: web\n"
              "             db\n");
}

ListedPool examplePool(std::vector<std::string> members)
{
    return ListedPool{"/io/resized1/pool/batch",
                      {{"Name", sdbus::Variant(std::string("batch"))},
                       {"CpuCapacityMillis", sdbus::Variant(uint64_t{4000})},
                       {"MemoryCapacity", sdbus::Variant(core::kUnlimited)},
                       {"CpuAllocatedMillis", sdbus::Variant(uint64_t{1500})},
                       {"MemoryAllocated", sdbus::Variant(uint64_t{768} << 20)},
                       {"Members", sdbus::Variant(std::move(members))},
                       {"AllowedDisruptions", sdbus::Variant(UINT32_MAX)}}};
}

TEST(PoolTable, ShowsAllocatedAgainstTheCapsAndCountsMembers)
{
    const ListedPool empty{"/io/resized1/pool/idle",
                           {{"Name", sdbus::Variant(std::string("idle"))},
                            {"CpuCapacityMillis", sdbus::Variant(uint64_t{500})},
                            {"MemoryCapacity", sdbus::Variant(uint64_t{1} << 30)},
                            {"CpuAllocatedMillis", sdbus::Variant(uint64_t{0})},
                            {"MemoryAllocated", sdbus::Variant(uint64_t{0})},
                            {"Members", sdbus::Variant(std::vector<std::string>{})}}};
    EXPECT_EQ(makePoolTable({examplePool({"web", "db"}), empty}).render(true),
              "NAME  CPU     MEMORY    MEMBERS\n"
              "batch 1500m/4 768Mi/max 2\n"
              "idle  0/500m  0/1Gi     0\n");
}

TEST(PoolTable, MarksPropertiesItLacks)
{
    const ListedPool bare{"/io/resized1/pool/x", {{"Name", sdbus::Variant(std::string("x"))}}};
    EXPECT_EQ(makePoolTable({bare}).render(false), "x -/- -/- 0\n");
}

TEST(PoolBlock, ShowsTheCapsAndListsTheMembers)
{
    EXPECT_EQ(formatPoolBlock(examplePool({"web", "db"}), {"web", "db"}),
              "● batch\n"
              "        CPU: 1500m of 4 allocated\n"
              "     Memory: 768Mi allocated, no cap\n"
              "    Members: web\n"
              "             db\n");
    EXPECT_NE(formatPoolBlock(examplePool({}), {}).find("Members: none\n"), std::string::npos);
}

// A container labelled for the pool counts in it even if resized does not
// manage it: it is a member, said to be unmanaged.
TEST(PoolBlock, MarksTheMembersResizedDoesNotManage)
{
    EXPECT_EQ(formatPoolBlock(examplePool({"batch1", "web"}), {"web"}),
              "● batch\n"
              "        CPU: 1500m of 4 allocated\n"
              "     Memory: 768Mi allocated, no cap\n"
              "    Members: batch1 (unmanaged)\n"
              "             web\n");
}

Dictionary exampleBudget(const std::string& value, uint64_t periodUsec, std::vector<std::string> reasons,
                         const std::string& schedule, uint64_t durationUsec, const std::string& timeZone)
{
    return {{"Value", sdbus::Variant(value)},
            {"PeriodUSec", sdbus::Variant(periodUsec)},
            {"Reasons", sdbus::Variant(std::move(reasons))},
            {"Schedule", sdbus::Variant(schedule)},
            {"DurationUSec", sdbus::Variant(durationUsec)},
            {"TimeZone", sdbus::Variant(timeZone)}};
}

TEST(PoolBlock, ShowsTheBudgetsOneALineAndWhatTheyAllowNow)
{
    ListedPool pool = examplePool({"web"});
    pool.properties["Budgets"] = sdbus::Variant(std::vector<Dictionary>{
        exampleBudget("30%", 600'000'000, {"manual", "autoscale"}, "0 9 * * 1-5", 28'800'000'000, "Europe/Berlin"),
        exampleBudget("2", 0, {}, "", 0, "UTC")});
    pool.properties["AllowedDisruptions"] = sdbus::Variant(uint32_t{1});
    EXPECT_EQ(formatPoolBlock(pool, {"web"}),
              "● batch\n"
              "                    CPU: 1500m of 4 allocated\n"
              "                 Memory: 768Mi allocated, no cap\n"
              "                Members: web\n"
              "                Budgets: 30% per 10min for manual, autoscale; schedule \"0 9 * * 1-5\" for 8h "
              "(Europe/Berlin)\n"
              "                         2 at a time\n"
              "    Allowed disruptions: 1 now\n");

    // Outside every window (or with none for manual) nothing limits now.
    pool.properties["AllowedDisruptions"] = sdbus::Variant(UINT32_MAX);
    EXPECT_NE(formatPoolBlock(pool, {"web"}).find("Allowed disruptions: no limit now\n"), std::string::npos);
}

// Without budgets AllowedDisruptions is always "no limit": not worth a line.
TEST(PoolBlock, LeavesBudgetsOutWhenThereAreNone)
{
    ListedPool pool = examplePool({"web"});
    pool.properties["Budgets"] = sdbus::Variant(std::vector<Dictionary>{});
    EXPECT_EQ(formatPoolBlock(pool, {"web"}).find("udgets"), std::string::npos);
    EXPECT_EQ(formatPoolBlock(pool, {"web"}).find("disruptions"), std::string::npos);
}

TEST(PoolJson, KeepsThePropertiesExactAndAddsTheObjectPath)
{
    const auto json = toJson(examplePool({"web"}));

    EXPECT_EQ(json["Name"], "batch");
    EXPECT_EQ(json["ObjectPath"], "/io/resized1/pool/batch");
    EXPECT_EQ(json["MemoryCapacity"].get<uint64_t>(), UINT64_MAX);
    EXPECT_EQ(json["MemoryAllocated"], 768u << 20);
    EXPECT_EQ(json["Members"], nlohmann::json::array({"web"}));
    EXPECT_EQ(json["AllowedDisruptions"], UINT32_MAX);
}

ListedPlan examplePlan(std::string state, std::string reason, uint64_t finishedAtUSec)
{
    const std::vector<PlanChange> changes{
        PlanChange("web", Dictionary{{"CpuMillis", sdbus::Variant(uint64_t{500})}}),
        PlanChange("db", Dictionary{{"CpuMillis", sdbus::Variant(uint64_t{1500})},
                                    {"MemoryMax", sdbus::Variant(uint64_t{1} << 30)}})};
    return ListedPlan{"/io/resized1/plan/7",
                      {{"Id", sdbus::Variant(uint64_t{7})},
                       {"State", sdbus::Variant(std::move(state))},
                       {"Reason", sdbus::Variant(std::move(reason))},
                       {"Message", sdbus::Variant(std::string("node: asked 1000m, available 200m"))},
                       {"Changes", sdbus::Variant(changes)},
                       {"SubmittedAtUSec", sdbus::Variant(kUpdatedAtUSec)},
                       {"FinishedAtUSec", sdbus::Variant(finishedAtUSec)}}};
}

TEST(PlanTable, ShowsStateReasonTimesAndHowManyChanges)
{
    EXPECT_EQ(makePlanTable({examplePlan("rejected", "capacity", kUpdatedAtUSec + 1'000'000),
                             examplePlan("pending", "", 0)})
                  .render(true),
              "ID STATE    REASON   SUBMITTED                   FINISHED                    CHANGES\n"
              "7  rejected capacity 2024-01-04T10:00:00.000000Z 2024-01-04T10:00:01.000000Z 2\n"
              "7  pending  -        2024-01-04T10:00:00.000000Z -                           2\n");
}

TEST(PlanBlock, ShowsTheStateWithItsReasonAndEachChange)
{
    using namespace std::chrono_literals;
    EXPECT_EQ(formatPlanBlock(examplePlan("rejected", "capacity", kUpdatedAtUSec + 1'000'000), kUpdatedAt + 5s),
              "● plan 7\n"
              "        State: rejected (capacity)\n"
              "      Message: node: asked 1000m, available 200m\n"
              "    Submitted: Thu 2024-01-04 10:00:00 UTC; 5s ago\n"
              "     Finished: Thu 2024-01-04 10:00:01 UTC; 4s ago\n"
              "      Changes: web: cpu=500m\n"
              "               db: cpu=1500m memory.max=1Gi\n");
    const std::string pending = formatPlanBlock(examplePlan("pending", "", 0), kUpdatedAt);
    EXPECT_NE(pending.find("State: pending\n"), std::string::npos);
    EXPECT_NE(pending.find("Finished: n/a\n"), std::string::npos);
}

TEST(PlanJson, ShowsTheChangesAsAPlanFileTakesThem)
{
    const auto plan = examplePlan("succeeded", "", kUpdatedAtUSec);
    const auto json = toJson(plan);
    EXPECT_EQ(json["Id"], 7u);
    EXPECT_EQ(json["ObjectPath"], "/io/resized1/plan/7");
    EXPECT_EQ(json["Changes"][1]["Workload"], "db");
    EXPECT_EQ(json["Changes"][1]["Resources"]["MemoryMax"], 1u << 30);
    // What plan status --json shows, plan submit --file takes back.
    const auto changes = planChangesFromJson(json);
    ASSERT_EQ(changes.size(), 2u);
    EXPECT_EQ(changes[1].get<0>(), "db");
    EXPECT_EQ(describeResources(changes[1].get<1>()), "cpu=1500m memory.max=1Gi");
}

TEST(StatusTable, ShowsTheLimitsInForce)
{
    Dictionary unmanaged{{"Workload", sdbus::Variant(std::string("batch"))}};
    EXPECT_EQ(makeStatusTable({exampleStatus(), unmanaged}).render(true),
              "NAME  SYNC           UPDATE  CPU MEMORY\n"
              "web   drift_detected success 1   512Mi\n"
              "batch unknown        unknown -   -\n");
}

// An entry of ListNodeWorkloads.
Dictionary nodeWorkload(const std::string& name, bool managed, const std::string& runState,
                        const core::Resources& actual)
{
    return Dictionary{
        {"Name", sdbus::Variant(name)},
        {"Kind", sdbus::Variant(std::string("container"))},
        {"Managed", sdbus::Variant(managed)},
        {"Pod", sdbus::Variant(std::string())},
        {"Pool", sdbus::Variant(std::string())},
        {"RunState", sdbus::Variant(runState)},
        {"Actual", sdbus::Variant(toDictionary(actual))},
    };
}

TEST(ListTable, SaysWhetherResizedManagesEachContainerAndWhetherItRuns)
{
    const std::vector<ListedWorkload> listed{
        {nodeWorkload("web", true, "running", cpuAndMemory(1000, 512ull << 20)), "drift_detected", "success",
         "/io/resized1/workload/web"},
        {nodeWorkload("batch", false, "running", cpuAndMemory(core::kUnlimited, 100'000'000)), {}, {}, {}},
        {nodeWorkload("old", false, "stopped", {}), {}, {}, {}},
    };
    EXPECT_EQ(makeListTable(listed).render(true),
              "NAME  MANAGED STATE   SYNC           UPDATE  CPU MEMORY\n"
              "web   yes     running drift_detected success 1   512Mi\n"
              "batch no      running -              -       max 95.4Mi\n"
              "old   no      stopped -              -       -   -\n");
}

TEST(ListJson, KeepsTheEntryAndExactBytes)
{
    const auto managed = toJson(ListedWorkload{nodeWorkload("web", true, "running", cpuAndMemory(1000, 1 << 30)),
                                               "synchronized", "success", "/io/resized1/workload/web"});
    const auto other = toJson(
        ListedWorkload{nodeWorkload("batch", false, "running", cpuAndMemory(std::nullopt, 100'000'000)), {}, {}, {}});

    EXPECT_EQ(managed["Managed"], true);
    EXPECT_EQ(managed["ObjectPath"], "/io/resized1/workload/web");
    EXPECT_EQ(managed["SyncState"], "synchronized");
    EXPECT_EQ(managed["RunState"], "running");
    EXPECT_EQ(other["Managed"], false);
    EXPECT_FALSE(other.contains("ObjectPath"));
    EXPECT_FALSE(other.contains("SyncState"));
    EXPECT_EQ(other["Actual"]["MemoryMax"], 100'000'000u);
}

TEST(Memory, IsShownInTheLargestBinaryUnit)
{
    EXPECT_EQ(formatMemory(256ull << 20), "256Mi");
    EXPECT_EQ(formatMemory(1ull << 30), "1Gi");
    EXPECT_EQ(formatMemory(3ull << 40), "3Ti");
    EXPECT_EQ(formatMemory(1536ull << 20), "1.5Gi");
    EXPECT_EQ(formatMemory(4096), "4Ki");
    EXPECT_EQ(formatMemory(1ull << 60), "1Ei");
}

TEST(Memory, RoundsToOneDecimalWhenNotWhole)
{
    EXPECT_EQ(formatMemory(24'421'940ull << 10), "23.3Gi");
    EXPECT_EQ(formatMemory(100'000'000), "95.4Mi");
    EXPECT_EQ(formatMemory((1ull << 30) - 1), "1.0Gi");
    EXPECT_EQ(formatMemory((1ull << 30) + 4096), "1.0Gi");
}

TEST(Memory, SmallIsBytesAndUnlimitedIsMax)
{
    EXPECT_EQ(formatMemory(0), "0");
    EXPECT_EQ(formatMemory(1000), "1000");
    EXPECT_EQ(formatMemory(core::kUnlimited), "max");
}

TEST(Limits, DescribeEveryResourceInHumanUnits)
{
    core::Resources resources = cpuAndMemory(1500, 24'421'940ull << 10);
    resources.memoryHigh = 256ull << 20;
    resources.cpuWeight = 100;
    resources.allowedCpus = core::CpuSet{};
    EXPECT_EQ(describeLimits(resources), "cpu=1500m memory.max=23.3Gi memory.high=256Mi cpu.weight=100 cpus=all");
    EXPECT_EQ(describeLimits(core::Resources{}), "none");
}

TEST(Node, ShowsDaemonStateCpuManagerAndResourceTable)
{
    const Dictionary properties{
        {"Version", sdbus::Variant(std::string("0.1.0"))},
        {"CgroupVersion", sdbus::Variant(std::string("v1"))},
        {"RuntimeConnected", sdbus::Variant(true)},
        {"CpuCapacityMillis", sdbus::Variant(uint64_t{2000})},
        {"CpuAllocatedMillis", sdbus::Variant(uint64_t{1500})},
        {"CpuReservedMillis", sdbus::Variant(uint64_t{0})},
        {"CpuAvailableMillis", sdbus::Variant(uint64_t{500})},
        {"MemoryCapacity", sdbus::Variant(uint64_t{4} << 30)},
        {"MemoryAllocated", sdbus::Variant(uint64_t{512} << 20)},
        {"MemoryReserved", sdbus::Variant(uint64_t{0})},
        {"MemoryAvailable", sdbus::Variant((uint64_t{4} << 30) - (uint64_t{512} << 20))},
        {"CpuManagerPolicy", sdbus::Variant(std::string("none"))},
        {"NumaNodes", sdbus::Variant(uint32_t{1})},
        {"SharedCpus", sdbus::Variant(std::string("0-1"))},
        {"ReservedCpus", sdbus::Variant(std::string(""))},
        {"ExclusiveCpuSet", sdbus::Variant(std::string(""))},
    };
    EXPECT_EQ(formatNode(properties, {}, true),
              "       Version: 0.1.0\n"
              "Cgroup version: v1\n"
              "       Runtime: connected\n"
              "\n"
              "   CPU manager: policy none\n"
              "    NUMA nodes: 1\n"
              "   Shared CPUs: 0-1 (2 CPUs)\n"
              " Reserved CPUs: -\n"
              "Exclusive CPUs: -\n"
              "\n"
              "RESOURCE CAPACITY ALLOCATED RESERVED AVAILABLE\n"
              "cpu      2        1500m     0        500m\n"
              "memory   4Gi      512Mi     0        3.5Gi\n");
}

TEST(Node, ShowsMemoryInHumanUnits)
{
    const Dictionary properties{{"MemoryCapacity", sdbus::Variant(uint64_t{24'421'940} << 10)}};
    EXPECT_NE(formatNode(properties, {}, true).find("memory   23.3Gi "), std::string::npos);
}

TEST(Node, ShowsEachExclusiveSliceUnderItsHolder)
{
    const Dictionary properties{
        {"CpuManagerPolicy", sdbus::Variant(std::string("static"))},
        {"NumaNodes", sdbus::Variant(uint32_t{2})},
        {"SharedCpus", sdbus::Variant(std::string("0-1,4-7"))},
        {"ReservedCpus", sdbus::Variant(std::string("0"))},
        {"ExclusiveCpuSet", sdbus::Variant(std::string("2-3,6-7"))},
    };
    const std::vector<Dictionary> statuses{
        {{"Workload", sdbus::Variant(std::string("web"))},
         {"Desired", sdbus::Variant(Dictionary{{"ExclusiveCpus", sdbus::Variant(uint64_t{1})},
                                               {"AllowedCpus", sdbus::Variant(std::string("2"))}})}},
        {{"Workload", sdbus::Variant(std::string("db"))},
         {"Desired", sdbus::Variant(Dictionary{{"ExclusiveCpus", sdbus::Variant(uint64_t{0})},
                                               {"AllowedCpus", sdbus::Variant(std::string(""))}})}},
        {{"Workload", sdbus::Variant(std::string("cart"))},
         {"Pod", sdbus::Variant(std::string("shop"))},
         {"Desired", sdbus::Variant(Dictionary{{"ExclusiveCpus", sdbus::Variant(uint64_t{1})},
                                               {"AllowedCpus", sdbus::Variant(std::string("6"))}})}},
        {{"Workload", sdbus::Variant(std::string("batch"))},
         {"Desired", sdbus::Variant(Dictionary{{"ExclusiveCpus", sdbus::Variant(uint64_t{1})},
                                               {"AllowedCpus", sdbus::Variant(std::string("3"))}})}},
        {{"Workload", sdbus::Variant(std::string("pod:shop"))},
         {"Desired", sdbus::Variant(Dictionary{{"ExclusiveCpus", sdbus::Variant(uint64_t{2})},
                                               {"AllowedCpus", sdbus::Variant(std::string("6-7"))}})}},
    };
    const std::string text = formatNode(properties, slicesOf(statuses), false);
    EXPECT_NE(text.find("   CPU manager: policy static\n"
                        "    NUMA nodes: 2\n"
                        "   Shared CPUs: 0-1,4-7 (6 CPUs)\n"
                        " Reserved CPUs: 0 (1 CPU)\n"
                        "Exclusive CPUs: 2-3,6-7 (4 CPUs)\n"
                        "                2 web\n"
                        "                3 batch\n"
                        "                6-7 pod:shop (bubble)\n"
                        "                  6 cart\n\n"),
              std::string::npos)
        << text;
}

TEST(Node, MarksPropertiesAnOlderDaemonLacks)
{
    const std::string text = formatNode(Dictionary{}, {}, false);
    EXPECT_NE(text.find("Runtime: unknown\n"), std::string::npos);
    EXPECT_NE(text.find("CPU manager: unknown\n"), std::string::npos);
    EXPECT_NE(text.find("Shared CPUs: unknown\n"), std::string::npos);
    EXPECT_NE(text.find("cpu    - - - -\n"), std::string::npos);
}

TEST(Events, ResourcesAppliedIsALineAndAnObject)
{
    const Event event = resourcesAppliedEvent(kUpdatedAt, "web", toDictionary(cpuAndMemory(500, std::nullopt)));
    EXPECT_EQ(event.text, "2024-01-04T10:00:00.000000Z web ResourcesApplied: cpu=500m");
    EXPECT_EQ(event.json["event"], "ResourcesApplied");
    EXPECT_EQ(event.json["workload"], "web");
    EXPECT_EQ(event.json["actual"]["CpuMillis"], 500u);
    EXPECT_EQ(event.json["timestamp"], "2024-01-04T10:00:00.000000Z");
}

TEST(Events, UpdateFailedCarriesTheErrorName)
{
    const Event event = updateFailedEvent(kUpdatedAt, "web", "io.resized1.Error.ApplyFailed", "runc said no");
    EXPECT_EQ(event.text, "2024-01-04T10:00:00.000000Z web UpdateFailed: io.resized1.Error.ApplyFailed: runc said no");
    EXPECT_EQ(event.json["error"], "io.resized1.Error.ApplyFailed");
}

TEST(Events, DriftShowsBothSides)
{
    const Event event = driftDetectedEvent(kUpdatedAt, "web", toDictionary(cpuAndMemory(1500, std::nullopt)),
                                           toDictionary(cpuAndMemory(1000, std::nullopt)));
    EXPECT_EQ(event.text, "2024-01-04T10:00:00.000000Z web DriftDetected: desired {cpu=1500m}, actual {cpu=1}");
    EXPECT_EQ(event.json["desired"]["CpuMillis"], 1500u);
    EXPECT_EQ(event.json["actual"]["CpuMillis"], 1000u);
}

TEST(Events, WorkloadPropertiesNameTheWorkload)
{
    const Dictionary changed{{"SyncState", sdbus::Variant(std::string("synchronized"))},
                             {"Actual", sdbus::Variant(toDictionary(cpuAndMemory(std::nullopt, 1ull << 30)))}};
    const Event event = propertiesChangedEvent(kUpdatedAt, "/io/resized1/workload/web_2d1", changed, {});
    EXPECT_EQ(event.text,
              "2024-01-04T10:00:00.000000Z web-1 PropertiesChanged: Actual={memory.max=1Gi} SyncState=synchronized");
    EXPECT_EQ(event.json["workload"], "web-1");
    EXPECT_EQ(event.json["changed"]["SyncState"], "synchronized");
}

TEST(Events, ManagerPropertiesShowQuantities)
{
    const Dictionary changed{{"CpuAvailableMillis", sdbus::Variant(uint64_t{500})},
                             {"MemoryAvailable", sdbus::Variant(uint64_t{1} << 30)},
                             {"RuntimeConnected", sdbus::Variant(false)}};
    const Event event = propertiesChangedEvent(kUpdatedAt, "/io/resized1", changed, {"Version"});
    EXPECT_EQ(event.text, "2024-01-04T10:00:00.000000Z manager PropertiesChanged: CpuAvailableMillis=500m "
                          "MemoryAvailable=1Gi RuntimeConnected=false Version changed");
    EXPECT_FALSE(event.json.contains("workload"));
    EXPECT_EQ(event.json["invalidated"][0], "Version");
}

}  // namespace
}  // namespace resized::ctl
