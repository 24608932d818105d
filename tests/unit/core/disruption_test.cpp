#include "core/disruption.h"

#include <gtest/gtest.h>

// Disruption budgets (design.md §1b), the pure part.
namespace resized::core {
namespace {

TEST(BudgetValue, IsACountOrAPercentUpToAHundred)
{
    EXPECT_EQ(parseBudgetValue("2"), (DisruptionBudget{.value = 2, .percent = false, .periodUsec = 0, .reasons = {}}));
    EXPECT_EQ(parseBudgetValue("0"), (DisruptionBudget{.value = 0, .percent = false, .periodUsec = 0, .reasons = {}}));
    EXPECT_EQ(parseBudgetValue("25%"), (DisruptionBudget{.value = 25, .percent = true, .periodUsec = 0, .reasons = {}}));
    for (const char* text : {"", "%", "-1", "1.5", "101%", "2 ", "x", "25%%"})
        EXPECT_EQ(parseBudgetValue(text), std::nullopt) << text;
    EXPECT_EQ(formatBudgetValue(*parseBudgetValue("25%")), "25%");
}

TEST(Disruption, IsALowerCpuOrMemoryLimitWithNoLimitTheHighest)
{
    EXPECT_TRUE(isDisruption({.cpuMillis = 500}, {.cpuMillis = 400}));
    EXPECT_TRUE(isDisruption({}, {.memoryMax = 1ull << 30}));
    EXPECT_TRUE(isDisruption({.cpuMillis = 100, .memoryMax = 1ull << 30}, {.cpuMillis = 900, .memoryMax = 1ull << 29}));
    EXPECT_FALSE(isDisruption({.cpuMillis = 400}, {.cpuMillis = 500}));
    EXPECT_FALSE(isDisruption({.cpuMillis = 400}, {.cpuMillis = kUnlimited}));
    EXPECT_FALSE(isDisruption({.cpuMillis = 400}, {.cpuMillis = 400, .cpuWeight = 10}));
}

TEST(AllowedDisruptions, IsTheMinimumOverTheBudgetsThatApply)
{
    const DisruptionBudget twoManual{.value = 2, .percent = false, .periodUsec = 600, .reasons = {DisruptionReason::Manual}};
    const DisruptionBudget thirtyPercent{.value = 30, .percent = true, .periodUsec = 0, .reasons = {}};
    const auto counted = [](const DisruptionBudget&) -> uint64_t { return 1; };

    // 30 % of 7 members is 2.1, rounded up to 3; one counted: 2 left. Two
    // manual, one counted: 1 left.
    EXPECT_EQ(allowedDisruptions({twoManual, thirtyPercent}, DisruptionReason::Manual, 7, counted), 1u);
    EXPECT_EQ(allowedDisruptions({twoManual, thirtyPercent}, DisruptionReason::Autoscale, 7, counted), 2u);
    EXPECT_EQ(allowedDisruptions({twoManual}, DisruptionReason::Plan, 7, counted), std::nullopt);
    EXPECT_EQ(allowedDisruptions({}, DisruptionReason::Manual, 7, counted), std::nullopt);
    // More counted than allowed (a budget lowered since): none, not a wrap.
    EXPECT_EQ(allowedDisruptions({twoManual}, DisruptionReason::Manual, 7, [](const auto&) { return uint64_t{5}; }), 0u);
}

TEST(DisruptionReason, NamesRoundTrip)
{
    for (const auto reason : {DisruptionReason::Manual, DisruptionReason::Autoscale, DisruptionReason::Plan})
        EXPECT_EQ(parseDisruptionReason(toString(reason)), reason);
    EXPECT_EQ(parseDisruptionReason("drift"), std::nullopt);
}

}  // namespace
}  // namespace resized::core
