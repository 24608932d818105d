#include "service/budget_clock.h"

#include <gtest/gtest.h>

#include "core/cron.h"
#include "temp_directory.h"

// When what the disruption budgets allow changes with time alone.
namespace resized::service {
namespace {

constexpr uint64_t kSecond = 1'000'000;
// 2026-12-02 10:00:00 UTC, the start of a minute.
constexpr uint64_t kTen = 1'796'205'600 * kSecond;

core::DisruptionBudget onePer(uint64_t periodUsec)
{
    core::DisruptionBudget budget;
    budget.value = 1;
    budget.periodUsec = periodUsec;
    return budget;
}

class BudgetClockTest : public ::testing::Test {
protected:
    void disruptAt(const std::string& pool, uint64_t atUsec)
    {
        store.recordDisruption({.pool = pool, .workload = "w", .atUsec = atUsec});
    }

    resized::test::TempDirectory directory;
    store::StateStore store{directory.path() / "state.db"};
};

TEST_F(BudgetClockTest, NothingDependsOnTimeWithoutBudgetsWithAPeriodOrAWindow)
{
    store.savePool({.name = "uncapped"});
    store.savePool({.name = "in-flight", .budgets = {onePer(0)}});
    disruptAt("in-flight", kTen);

    EXPECT_EQ(nextBudgetChangeUsec(store, kTen + kSecond), std::nullopt);
}

TEST_F(BudgetClockTest, ADisruptionLeavesItsBudgetsPeriodJustAfterItEnds)
{
    store.savePool({.name = "batch", .budgets = {onePer(60 * kSecond)}});
    store.savePool({.name = "web", .budgets = {onePer(10 * kSecond)}});
    disruptAt("batch", kTen);
    disruptAt("batch", kTen + 5 * kSecond);
    // Out of web's period already: it no longer counts.
    disruptAt("web", kTen);

    EXPECT_EQ(nextBudgetChangeUsec(store, kTen + 20 * kSecond), kTen + 60 * kSecond + 1);
    EXPECT_EQ(nextBudgetChangeUsec(store, kTen + 60 * kSecond + 1), kTen + 65 * kSecond + 1);
    EXPECT_EQ(nextBudgetChangeUsec(store, kTen + 65 * kSecond + 1), std::nullopt);
}

TEST_F(BudgetClockTest, AWindowMayOpenOrCloseAtItsEdges)
{
    core::DisruptionBudget windowed = onePer(0);
    windowed.window = core::DisruptionBudget::Window{.schedule = core::CronSchedule::parse("0 9 * * *"),
                                                     .durationUsec = 90 * kSecond};
    store.savePool({.name = "batch", .budgets = {windowed}});

    EXPECT_EQ(nextBudgetChangeUsec(store, kTen + 10 * kSecond), kTen + 30 * kSecond);
    EXPECT_EQ(nextBudgetChangeUsec(store, kTen + 30 * kSecond), kTen + 60 * kSecond);
}

// What a refusal by a budget says: when waiting lets the change through.
TEST_F(BudgetClockTest, ARefusedDisruptionIsAllowedOnceEnoughHaveLeftThePeriod)
{
    core::DisruptionBudget twoPerMinute = onePer(60 * kSecond);
    twoPerMinute.value = 2;
    store.savePool({.name = "batch", .budgets = {twoPerMinute}});
    disruptAt("batch", kTen);
    disruptAt("batch", kTen + 5 * kSecond);
    const auto pool = *store.findPool("batch");

    EXPECT_EQ(disruptionsAllowedAtUsec(store, pool, core::DisruptionReason::Manual, 1, kTen + 20 * kSecond),
              kTen + 60 * kSecond + 1);
    EXPECT_EQ(disruptionsAllowedAtUsec(store, pool, core::DisruptionReason::Manual, 2, kTen + 20 * kSecond),
              kTen + 65 * kSecond + 1);
}

TEST_F(BudgetClockTest, TimeAloneFreesNoBudgetWithoutAPeriod)
{
    store.savePool({.name = "in-flight", .budgets = {onePer(0)}});

    EXPECT_EQ(disruptionsAllowedAtUsec(store, *store.findPool("in-flight"), core::DisruptionReason::Manual, 2, kTen),
              std::nullopt);
}

}  // namespace
}  // namespace resized::service
