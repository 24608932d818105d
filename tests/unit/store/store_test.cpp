#include "store/plan_store.h"
#include "store/state_store.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <filesystem>
#include <limits>
#include <string_view>

#include "store/migrations.h"

#include "temp_directory.h"

using namespace resized;

namespace {

class StoreTest : public ::testing::Test {
protected:
    std::filesystem::path file() const { return directory_.path() / "state.db"; }

    resized::test::TempDirectory directory_;
};

store::WorkloadRecord sampleRecord(const std::string& name, bool holdsAllocation)
{
    store::WorkloadRecord record;
    record.name = name;
    record.containerId = "abc";
    record.runState = core::RunState::Paused;
    record.holdsAllocation = holdsAllocation;
    record.desired = {.cpuMillis = 1500, .memoryMax = core::kUnlimited, .allowedCpus = core::CpuSet{0, 1}};
    record.allocated = {1500, 1ull << 30};
    record.syncState = core::SyncState::Synchronized;
    record.updateState = core::UpdateState::Success;
    record.generation = 3;
    record.observedGeneration = 3;
    return record;
}

}  // namespace

TEST_F(StoreTest, MigratesANewFileToTheNewestSchema)
{
    store::StateStore store(file());
    store::Statement version(store.database(), "PRAGMA user_version");
    ASSERT_TRUE(version.step());
    EXPECT_EQ(version.integer(0), store::builtinMigrations().back().version);
}

TEST_F(StoreTest, RefusesAFileFromANewerResizedAndLeavesItAlone)
{
    {
        store::Database db(file());
        db.execute("CREATE TABLE future (x INTEGER)");
        db.execute("PRAGMA user_version = 999");
    }
    EXPECT_THROW(store::StateStore{file()}, store::NewerSchemaError);
    store::Database db(file());
    store::Statement tables(db, "SELECT COUNT(*) FROM sqlite_master WHERE name = 'workloads'");
    ASSERT_TRUE(tables.step());
    EXPECT_EQ(tables.integer(0), 0);
}

TEST_F(StoreTest, AFailedMigrationLeavesTheVersionAsItWas)
{
    store::Database db(file());
    const std::vector<store::Migration> migrations{
        {1, "001_good.sql", "CREATE TABLE a (x INTEGER);"},
        {2, "002_bad.sql", "CREATE TABLE b (x INTEGER); THIS IS NOT SQL;"},
    };
    EXPECT_THROW(store::migrate(db, migrations), store::StoreError);
    store::Statement version(db, "PRAGMA user_version");
    ASSERT_TRUE(version.step());
    EXPECT_EQ(version.integer(0), 1);
    store::Statement tableB(db, "SELECT COUNT(*) FROM sqlite_master WHERE name = 'b'");
    ASSERT_TRUE(tableB.step());
    EXPECT_EQ(tableB.integer(0), 0);
}

// Two daemons (or a daemon and a tool) opening an old file at once: what
// the other applied while this one was starting must not be applied again.
// The other's whole migration runs at the moment this one begins its write
// transaction, the last moment before it holds the lock.
TEST_F(StoreTest, AMigrationAnotherConnectionAppliedMeanwhileIsNotAppliedAgain)
{
    const std::vector<store::Migration> migrations{
        {1, "001_once.sql", "CREATE TABLE once (x INTEGER);"},
    };
    struct Race {
        store::Database other;
        const std::vector<store::Migration>& migrations;
        bool ran = false;
        std::string error{};
    } race{store::Database(file()), migrations};
    store::Database db(file());
    sqlite3_trace_v2(
        db.handle(), SQLITE_TRACE_STMT,
        [](unsigned, void* context, void* statement, void*) {
            auto& race = *static_cast<Race*>(context);
            const std::string_view sql = sqlite3_sql(static_cast<sqlite3_stmt*>(statement));
            if (race.ran || !sql.starts_with("BEGIN"))
                return 0;
            race.ran = true;
            try {
                store::migrate(race.other, race.migrations);
            } catch (const store::StoreError& error) {
                race.error = error.what();
            }
            return 0;
        },
        &race);

    EXPECT_NO_THROW(store::migrate(db, migrations));
    ASSERT_TRUE(race.ran) << "no write transaction began";
    EXPECT_EQ(race.error, "");
    store::Statement version(db, "PRAGMA user_version");
    ASSERT_TRUE(version.step());
    EXPECT_EQ(version.integer(0), 1);
}

TEST_F(StoreTest, WorkloadsSurviveReopeningWithEveryField)
{
    const auto record = sampleRecord("web", true);
    store::StateStore(file()).save(record);
    store::StateStore reopened(file());
    auto found = reopened.find("web");
    ASSERT_TRUE(found);
    EXPECT_EQ(found->desired, record.desired);
    EXPECT_EQ(found->desired.memoryMax, core::kUnlimited);
    EXPECT_EQ(found->allocated, record.allocated);
    EXPECT_EQ(found->syncState, core::SyncState::Synchronized);
    EXPECT_EQ(found->generation, 3u);
    EXPECT_EQ(found->runState, core::RunState::Paused);
    EXPECT_TRUE(found->holdsAllocation);
    EXPECT_FALSE(reopened.find("other"));
}

TEST_F(StoreTest, PoolMembershipSurvivesReopeningAndGoesWithItsPool)
{
    auto chosen = sampleRecord("chosen", true);
    chosen.poolOption = "batch";
    chosen.poolLabel = "web";
    auto labelled = sampleRecord("labelled", true);
    labelled.poolLabel = "batch";
    auto optedOut = sampleRecord("opted-out", true);
    optedOut.poolOption = "";
    optedOut.poolLabel = "batch";
    {
        store::StateStore store(file());
        store.savePool({.name = "batch", .cap = {1000, core::kUnlimited}});
        for (const auto& record : {chosen, labelled, optedOut})
            store.save(record);
    }
    store::StateStore reopened(file());

    EXPECT_EQ(reopened.find("chosen")->pool(), "batch");
    EXPECT_EQ(reopened.find("opted-out")->poolOption, std::optional<std::string>(""));
    EXPECT_EQ(reopened.findPool("batch"), (store::PoolRecord{"batch", {1000, core::kUnlimited}}));
    EXPECT_EQ(reopened.poolMembers("batch"), (std::vector<std::string>{"chosen", "labelled"}));
    EXPECT_EQ(reopened.poolAllocatedOutsideHeldPods("batch"), chosen.allocated + labelled.allocated);
    EXPECT_EQ(reopened.poolAllocatedOutsideHeldPods(""), optedOut.allocated);

    EXPECT_TRUE(reopened.removePool("batch"));
    EXPECT_FALSE(reopened.removePool("batch"));
    EXPECT_EQ(reopened.find("chosen")->poolOption, std::nullopt);
    EXPECT_EQ(reopened.find("chosen")->pool(), "web");
    EXPECT_EQ(reopened.find("opted-out")->poolOption, std::optional<std::string>(""));
    EXPECT_TRUE(reopened.pools().empty());
}

TEST_F(StoreTest, DisruptionsAreCountedByPeriodReasonAndFlight)
{
    store::StateStore store(file());
    store::PoolRecord pool{.name = "batch"};
    // The second only on weekday mornings in Berlin: its window is kept too.
    pool.budgets = {{.value = 25, .percent = true, .periodUsec = 600, .reasons = {core::DisruptionReason::Autoscale}},
                    {.value = 0, .percent = false, .periodUsec = 0, .reasons = {},
                     .window = core::DisruptionBudget::Window{.schedule = core::CronSchedule::parse("0 9 * * mon-fri"),
                                                              .durationUsec = 3'600'000'000,
                                                              .timeZone = "Europe/Berlin"}}};
    store.savePool(pool);
    store.save(sampleRecord("web", true));
    const int64_t inFlight = store.addReservation({.workload = "web"});
    using core::DisruptionReason;
    store.recordDisruption({.pool = "batch", .workload = "web", .reason = DisruptionReason::Manual, .atUsec = 1000,
                            .reservationId = 0});
    store.recordDisruption({.pool = "batch", .workload = "web", .reason = DisruptionReason::Autoscale,
                            .atUsec = 1500, .reservationId = inFlight});
    store.recordDisruption({.pool = "other", .workload = "web", .reason = DisruptionReason::Manual, .atUsec = 1900,
                            .reservationId = 0});
    const auto budget = [](uint64_t period, std::set<DisruptionReason> reasons) {
        return core::DisruptionBudget{.value = 1, .percent = false, .periodUsec = period, .reasons = std::move(reasons)};
    };

    EXPECT_EQ(store.countDisruptions("batch", budget(1000, {}), 2000), 2u);
    EXPECT_EQ(store.countDisruptions("batch", budget(600, {}), 2000), 1u);
    EXPECT_EQ(store.countDisruptions("batch", budget(1000, {DisruptionReason::Manual}), 2000), 1u);
    EXPECT_EQ(store.countDisruptions("batch", budget(0, {}), 2000), 1u);
    store.removeReservation(inFlight);
    EXPECT_EQ(store.countDisruptions("batch", budget(0, {}), 2000), 0u);
    EXPECT_EQ(store.findPool("batch")->budgets, pool.budgets);
    // Kept for the longest period a budget may have, no longer.
    const uint64_t later = 1200 + store::kDisruptionRetentionUsec;
    store.recordDisruption({.pool = "batch", .workload = "web", .reason = DisruptionReason::Manual, .atUsec = later,
                            .reservationId = 0});
    EXPECT_EQ(store.countDisruptions("batch", budget(later, {}), later), 2u);
}

TEST_F(StoreTest, AllocationCountsTheWorkloadsThatHoldOne)
{
    store::StateStore store(file());
    store.save(sampleRecord("a", true));
    auto stopped = sampleRecord("stopped", true);
    stopped.runState = core::RunState::Stopped;
    store.save(stopped);
    store.save(sampleRecord("released", false));
    auto member = sampleRecord("member", true);
    member.pod = "shop";
    store.save(member);
    auto pod = sampleRecord("pod:shop", true);
    pod.kind = core::WorkloadKind::Pod;
    pod.allocated = {4000, 0};
    store.save(pod);

    // The pod limits CPU: its member's CPU is inside, its memory is not.
    EXPECT_EQ(store.allocatedOutsideHeldPods(), (core::Amounts{3000 + 4000, (2ull << 30) + (1ull << 30)}));
    EXPECT_EQ(store.heldPodLimits(), (std::map<std::string, core::Amounts>{{"shop", {4000, 0}}}));
    EXPECT_EQ(store.podMemberAllocations("shop"),
              (std::vector<store::HeldAllocation>{{"member", "", {1500, 1ull << 30}}}));
}

TEST_F(StoreTest, TheSlicesHeldAreTheDesiredStatesOfTheirHolders)
{
    store::StateStore store(file());
    auto holder = sampleRecord("web", true);
    holder.desired = {.cpuMillis = core::kUnlimited, .allowedCpus = core::CpuSet{2, 3}, .exclusiveCpus = 2};
    holder.exclusiveCpusGranted = core::CpuSet{2};
    store.save(holder);
    // Released (its container gone for good): no longer holds its slice.
    auto released = holder;
    released.name = "gone";
    released.holdsAllocation = false;
    store.save(released);
    auto givenBack = holder;
    givenBack.name = "db";
    givenBack.desired = {.allowedCpus = core::CpuSet{}, .exclusiveCpus = 0};
    store.save(givenBack);
    store.save(sampleRecord("plain", true));

    EXPECT_EQ(store.heldSlices(),
              (std::map<std::string, core::Slice>{{"web", {core::CpuSet{2, 3}, core::CpuSet{2}}}}));
    // Asked at every change under the static policy: the partial index of
    // migration 12 keeps it to the holders.
    store::Statement plan(store.database(),
                          "EXPLAIN QUERY PLAN SELECT name, desired, exclusive_cpus_granted FROM workloads WHERE "
                          "holds_allocation AND json_extract(desired, '$.ExclusiveCpus') > 0");
    ASSERT_TRUE(plan.step());
    EXPECT_NE(plan.text(3).find("USING INDEX workloads_holding_slices"), std::string::npos) << plan.text(3);
}

TEST_F(StoreTest, NarrowedCpusetsAreKeptForTheContainersThereAre)
{
    store::StateStore store(file());
    store.saveNarrowedCpuset("/a", core::CpuSet{});
    store.saveNarrowedCpuset("/b", core::CpuSet{0, 1});
    EXPECT_EQ(store.narrowedCpuset("/a"), core::CpuSet{});
    EXPECT_EQ(store.narrowedCpuset("/b"), (core::CpuSet{0, 1}));
    EXPECT_EQ(store.narrowedCpuset("/c"), std::nullopt);

    store.keepNarrowedCpusets({"/b", "/c"});
    EXPECT_EQ(store.narrowedCpuset("/a"), std::nullopt);
    store.removeNarrowedCpuset("/b");
    EXPECT_EQ(store.narrowedCpuset("/b"), std::nullopt);
}

TEST_F(StoreTest, SavingAWorkloadKeepsItsLiveReservation)
{
    store::StateStore store(file());
    store.save(sampleRecord("a", true));
    store.addReservation({.workload = "a", .amounts = {100, 10}});
    auto record = sampleRecord("a", true);
    record.syncState = core::SyncState::Applying;
    store.save(record);
    EXPECT_EQ(store.reservations().size(), 1u);
    EXPECT_EQ(store.reservedTotal(), (core::Amounts{100, 10}));
}

TEST_F(StoreTest, AVersion3FileKeepsTheAllocationOfAdmittedWorkloads)
{
    {
        store::Database db(file());
        auto migrations = store::builtinMigrations();
        migrations.resize(3);
        store::migrate(db, migrations);
        db.execute("INSERT INTO workloads (name, running, update_state, allocated_cpu_millis) "
                   "VALUES ('admitted', 0, 'success', 700), ('asked', 0, 'pending', 0), "
                   "('live', 1, 'success', 300)");
    }
    store::StateStore store(file());
    EXPECT_EQ(store.find("admitted")->runState, core::RunState::Stopped);
    EXPECT_EQ(store.find("live")->runState, core::RunState::Running);
    EXPECT_FALSE(store.find("asked")->holdsAllocation);
    EXPECT_EQ(store.allocatedOutsideHeldPods().cpuMillis, 1000u);
}

TEST_F(StoreTest, ReservationsAddUpAndGoWithTheirWorkload)
{
    store::StateStore store(file());
    store.save(sampleRecord("a", true));
    const auto first = store.addReservation({.workload = "a", .amounts = {100, 10}, .target = {.cpuMillis = 100}});
    store.addReservation({.workload = "a", .amounts = {200, 20}});
    EXPECT_EQ(store.reservedTotal(), (core::Amounts{300, 30}));
    store.removeReservation(first);
    EXPECT_EQ(store.reservedTotal(), (core::Amounts{200, 20}));
    store.remove("a");
    EXPECT_TRUE(store.reservations().empty());
}

// A crash between deleting the workload and its deferred update would leave
// the deferred row, which brings the forgotten workload back when capacity
// frees. A trigger failing the second delete stands in for the crash.
class RemoveTest : public StoreTest {
protected:
    void SetUp() override
    {
        store_.save(sampleRecord("a", true));
        store_.deferUpdate({.workload = "a", .request = {.cpuMillis = 100}});
    }

    void failDeletingDeferredUpdates()
    {
        store_.database().execute("CREATE TEMP TRIGGER crash BEFORE DELETE ON deferred_updates "
                                  "BEGIN SELECT RAISE(ABORT, 'crash'); END");
    }

    bool aIsKept() { return store_.find("a") && store_.deferredUpdates().size() == 1; }
    bool aIsGone() { return !store_.find("a") && store_.deferredUpdates().empty(); }

    store::StateStore store_{file()};
};

TEST_F(RemoveTest, DropsTheWorkloadAndItsDeferredUpdate)
{
    store_.remove("a");
    EXPECT_TRUE(aIsGone());
}

TEST_F(RemoveTest, IsAllOrNothing)
{
    failDeletingDeferredUpdates();
    EXPECT_THROW(store_.remove("a"), store::StoreError);
    EXPECT_TRUE(aIsKept());
}

TEST_F(RemoveTest, JoinsTheCallersTransaction)
{
    {
        store::WriteTransaction transaction(store_.database());
        store_.remove("a");
        EXPECT_TRUE(aIsGone());
    }
    EXPECT_TRUE(aIsKept()) << "the caller's rollback did not undo the removal";
    store::WriteTransaction transaction(store_.database());
    store_.remove("a");
    transaction.commit();
    EXPECT_TRUE(aIsGone());
}

// The caller may go on after a failed removal and commit the rest.
TEST_F(RemoveTest, AFailureInsideTheCallersTransactionUndoesOnlyTheRemoval)
{
    failDeletingDeferredUpdates();
    store::WriteTransaction transaction(store_.database());
    store_.save(sampleRecord("b", true));
    EXPECT_THROW(store_.remove("a"), store::StoreError);
    transaction.commit();
    EXPECT_TRUE(aIsKept());
    EXPECT_TRUE(store_.find("b"));
}

TEST_F(StoreTest, AnUncommittedTransactionChangesNothing)
{
    store::StateStore store(file());
    {
        store::WriteTransaction transaction(store.database());
        store.save(sampleRecord("a", true));
    }
    EXPECT_FALSE(store.find("a"));
}

// History written before actors were recorded was all callers'.
TEST_F(StoreTest, HistoryOfAnOlderSchemaKeepsItsCallersAsActors)
{
    {
        store::Database db(file());
        const auto& all = store::builtinMigrations();
        const std::vector<store::Migration> beforeActors(all.begin(), all.begin() + 4);
        store::migrate(db, beforeActors);
        db.execute("INSERT INTO history (workload, caller_uid, operation, request, result, started_at_usec, "
                   "finished_at_usec) VALUES ('a', 1000, 'update', '{}', 'success', 1, 2)");
    }
    store::StateStore store(file());
    store.recordHistory({.workload = "a", .actor = "reconcile", .operation = "repair", .request = "{}",
                         .result = "success"});

    const auto entries = store.history("a", 10);

    ASSERT_EQ(entries.size(), 2u);
    EXPECT_EQ(entries[0].actor, "reconcile");
    EXPECT_EQ(entries[1].actor, "uid:1000");
    EXPECT_EQ(entries[1].callerUid, 1000u);
}

TEST_F(StoreTest, HistoryIsTrimmedToItsLimit)
{
    store::StateStore store(file(), 5);
    for (int i = 0; i < 12; ++i)
        store.recordHistory({.workload = "a", .operation = "update", .request = "{}",
                             .result = std::to_string(i)});
    const auto entries = store.history("a", 100);
    ASSERT_EQ(entries.size(), 5u);
    EXPECT_EQ(entries.front().result, "11");
    EXPECT_EQ(entries.back().result, "7");
}

TEST_F(StoreTest, HistoryOfEveryWorkloadIsNewestFirstAndLimited)
{
    store::StateStore store(file());
    for (const char* workload : {"a", "pod:b", "a"})
        store.recordHistory({.workload = workload, .operation = "update", .request = "{}", .result = "success"});
    const auto all = store.history("", std::numeric_limits<size_t>::max());
    ASSERT_EQ(all.size(), 3u);
    EXPECT_EQ(all[0].workload, "a");
    EXPECT_EQ(all[1].workload, "pod:b");
    EXPECT_EQ(all[2].workload, "a");
    EXPECT_EQ(store.history("", 2).size(), 2u);
    EXPECT_EQ(store.history("pod:b", 10).size(), 1u);
    EXPECT_TRUE(store.history("c", 10).empty());
}

// SQLite counts in signed 64 bits: a larger limit once wrapped negative and
// deleted every entry.
TEST_F(StoreTest, AHistoryLimitBeyondWhatSQLiteCountsKeepsEverything)
{
    for (const size_t limit : {size_t{1} << 63, std::numeric_limits<size_t>::max()}) {
        const std::filesystem::path path = directory_.path() / ("state-" + std::to_string(limit) + ".db");
        store::StateStore store(path, limit);
        for (int i = 0; i < 3; ++i)
            store.recordHistory({.workload = "a", .operation = "update", .request = "{}",
                                 .result = std::to_string(i)});
        EXPECT_EQ(store.history("a", 100).size(), 3u) << "limit " << limit;
    }
}

TEST_F(StoreTest, DeferredUpdatesWaitOldestFirstAndANewerOneReplacesItsWorkloads)
{
    store::StateStore store(file());
    store.deferUpdate({.workload = "a", .request = {.cpuMillis = 100}, .callerUid = 1});
    store.deferUpdate({.workload = "b", .request = {.cpuMillis = 200}, .reclaimTimeoutUsec = 5});
    store::DeferredUpdate autoscaled{.workload = "a", .request = {.cpuMillis = 300}, .force = true};
    autoscaled.actor = "autoscale";
    store.deferUpdate(autoscaled);
    const auto waiting = store.deferredUpdates();
    ASSERT_EQ(waiting.size(), 2u);
    EXPECT_EQ(waiting[0].workload, "b");
    EXPECT_EQ(waiting[0].reclaimTimeoutUsec, 5u);
    EXPECT_EQ(waiting[1].request.cpuMillis, 300u);
    EXPECT_TRUE(waiting[1].force);
    EXPECT_EQ(waiting[1].actor, "autoscale");
    EXPECT_EQ(waiting[1].reclaimTimeoutUsec, std::nullopt);
    EXPECT_EQ(waiting[1].pool, std::nullopt);
    store::DeferredUpdate joining{.workload = "b", .request = {.cpuMillis = 200}};
    joining.pool = "batch";
    store.deferUpdate(joining);
    EXPECT_EQ(store.deferredUpdates().back().pool, std::optional<std::string>("batch"));
    store.removeDeferred("b");
    EXPECT_EQ(store.deferredUpdates().size(), 1u);
}

TEST_F(StoreTest, PlansSurviveReopeningAndFinishedOnesAreForgottenAfterTheirTime)
{
    store::PlanRecord plan{
        .id = 0,
        .state = core::PlanState::Pending,
        .reason = core::PlanReason::None,
        .message = "",
        .changes = {{"web", core::Resources{.cpuMillis = 700}}, {"db", core::Resources{.memoryMax = 1ull << 30}}},
        .containers = {{"web", "abc"}, {"db", ""}},
        .expectedGenerations = {{"web", 3}},
        .disruptionReason = core::DisruptionReason::Manual,
        .dryRun = false,
        .defer = true,
        .callerUid = 1000,
        .submittedAtUsec = 10,
        .runAtUsec = 20,
        .finishedAtUsec = 0,
    };
    {
        store::StateStore store(file());
        store::PlanStore plans(store.database());
        plan.id = plans.add(plan);
        const int64_t second = plans.add(plan);
        EXPECT_GT(second, plan.id);
        auto finished = *plans.find(second);
        finished.state = core::PlanState::Rejected;
        finished.reason = core::PlanReason::Churn;
        finished.message = "web is another container";
        finished.finishedAtUsec = 100;
        plans.save(finished);
    }
    store::StateStore store(file());
    store::PlanStore plans(store.database());

    EXPECT_EQ(plans.find(plan.id), plan);
    ASSERT_EQ(plans.plans().size(), 2U);
    EXPECT_EQ(plans.plans()[1].reason, core::PlanReason::Churn);
    EXPECT_TRUE(plans.plans()[1].finished());
    EXPECT_EQ(plans.removeFinishedBefore(100), std::vector<int64_t>{});
    EXPECT_EQ(plans.removeFinishedBefore(101), std::vector<int64_t>{plan.id + 1});
    EXPECT_EQ(plans.plans(), std::vector<store::PlanRecord>{plan});
    // Ids are never reused: they name D-Bus objects.
    EXPECT_GT(plans.add(plan), plan.id + 1);
}

TEST_F(StoreTest, AReservationKeepsItsPlan)
{
    store::StateStore store(file());
    store.save({.name = "web"});
    store.addReservation({.workload = "web", .planId = 7});
    store.addReservation({.workload = "web"});

    const auto reservations = store.reservations();
    ASSERT_EQ(reservations.size(), 2U);
    EXPECT_EQ(reservations[0].planId, 7);
    EXPECT_EQ(reservations[1].planId, 0);
    const auto ofPlan = store.reservationsOfPlan(7);
    ASSERT_EQ(ofPlan.size(), 1U);
    EXPECT_EQ(ofPlan[0].id, reservations[0].id);
    EXPECT_TRUE(store.reservationsOfPlan(8).empty());
}
