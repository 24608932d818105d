#include "service/budget_windows.h"

#include <gtest/gtest.h>

#include <chrono>

// Budgets in force by their windows, on the wall clock of real time zones
// from the system's database.
namespace resized::service {
namespace {

using namespace std::chrono_literals;

core::DisruptionBudget windowed(const char* schedule, std::chrono::microseconds duration, const char* zone)
{
    core::DisruptionBudget budget;
    budget.value = 1;
    budget.window = core::DisruptionBudget::Window{
        .schedule = core::CronSchedule::parse(schedule),
        .durationUsec = static_cast<uint64_t>(duration.count()),
        .timeZone = zone,
    };
    return budget;
}

uint64_t usecOf(std::chrono::sys_time<std::chrono::microseconds> moment)
{
    return static_cast<uint64_t>(moment.time_since_epoch().count());
}

const auto kWednesday = std::chrono::sys_days{std::chrono::year{2026} / 12 / 2};

TEST(BudgetWindows, AWindowIsReadOnItsZonesClock)
{
    // 09:00–10:00 in Berlin is 08:00–09:00 UTC in December.
    const std::vector<core::DisruptionBudget> budgets{windowed("0 9 * * *", 1h, "Europe/Berlin")};
    EXPECT_TRUE(budgetsInForce(budgets, usecOf(kWednesday + 7h + 59min)).empty());
    EXPECT_EQ(budgetsInForce(budgets, usecOf(kWednesday + 8h + 30min)), budgets);
    EXPECT_TRUE(budgetsInForce(budgets, usecOf(kWednesday + 9h)).empty());
    // In July, with daylight saving time, the same window is 07:00–08:00 UTC.
    const auto july = std::chrono::sys_days{std::chrono::year{2026} / 7 / 1};
    EXPECT_EQ(budgetsInForce(budgets, usecOf(july + 7h + 30min)), budgets);
    EXPECT_TRUE(budgetsInForce(budgets, usecOf(july + 8h + 30min)).empty());
}

TEST(BudgetWindows, ABudgetWithoutAWindowIsAlwaysInForce)
{
    core::DisruptionBudget always;
    always.value = 2;
    const std::vector<core::DisruptionBudget> budgets{always, windowed("0 0 1 1 *", 1min, "UTC")};
    EXPECT_EQ(budgetsInForce(budgets, usecOf(kWednesday)), std::vector<core::DisruptionBudget>{always});
}

// design.md §1b: a budget that cannot be evaluated allows nothing.
TEST(BudgetWindows, AWindowInAZoneTheDatabaseDoesNotKnowAllowsNothing)
{
    const auto inForce = budgetsInForce({windowed("0 9 * * *", 1h, "Nowhere/Atlantis")}, usecOf(kWednesday));
    ASSERT_EQ(inForce.size(), 1U);
    EXPECT_EQ(inForce[0].value, 0U);
    EXPECT_FALSE(inForce[0].percent);
}

TEST(BudgetWindows, KnowsIanaTimeZoneNames)
{
    EXPECT_TRUE(knownTimeZone("UTC"));
    EXPECT_TRUE(knownTimeZone("America/New_York"));
    EXPECT_FALSE(knownTimeZone("Nowhere/Atlantis"));
    EXPECT_FALSE(knownTimeZone(""));
}

}  // namespace
}  // namespace resized::service
