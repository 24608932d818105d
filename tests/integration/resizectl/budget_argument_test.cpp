#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "budget_argument.h"

namespace resized::ctl {
namespace {

using ::testing::HasSubstr;
using ::testing::ThrowsMessage;
using Strings = std::vector<std::string>;

// That reading `text` fails with a message saying `why`.
void expectRefused(std::string_view text, const std::string& why)
{
    EXPECT_THAT([text] { parseBudgetArgument(text); }, ThrowsMessage<InvalidBudgetArgument>(HasSubstr(why)))
        << text;
}

TEST(BudgetArgument, AValueAloneIsABudgetOfThatValue)
{
    const Dictionary count = parseBudgetArgument("2");
    ASSERT_EQ(count.size(), 1u);
    EXPECT_EQ(count.at("Value").get<std::string>(), "2");
    const Dictionary percent = parseBudgetArgument("25%");
    ASSERT_EQ(percent.size(), 1u);
    EXPECT_EQ(percent.at("Value").peekValueType(), "s");
    EXPECT_EQ(percent.at("Value").get<std::string>(), "25%");
}

TEST(BudgetArgument, ReadsThePeriodAsASystemdTimeSpanInMicroseconds)
{
    const Dictionary budget = parseBudgetArgument("30%,period=10m");
    ASSERT_EQ(budget.size(), 2u);
    EXPECT_EQ(budget.at("PeriodUSec").peekValueType(), "t");
    EXPECT_EQ(budget.at("PeriodUSec").get<uint64_t>(), 600'000'000u);
    EXPECT_EQ(parseBudgetArgument("1,period=1h30min").at("PeriodUSec").get<uint64_t>(), 5'400'000'000u);
}

TEST(BudgetArgument, ReadsEveryKeyWithItsDBusType)
{
    const Dictionary budget =
        parseBudgetArgument("1,reasons=manual+autoscale,schedule=0 9 * * 1-5,duration=8h,timezone=Europe/Berlin");
    ASSERT_EQ(budget.size(), 5u);
    EXPECT_EQ(budget.at("Value").get<std::string>(), "1");
    EXPECT_EQ(budget.at("Reasons").peekValueType(), "as");
    EXPECT_EQ(budget.at("Reasons").get<Strings>(), (Strings{"manual", "autoscale"}));
    EXPECT_EQ(budget.at("Schedule").get<std::string>(), "0 9 * * 1-5");
    EXPECT_EQ(budget.at("DurationUSec").get<uint64_t>(), 28'800'000'000u);
    EXPECT_EQ(budget.at("TimeZone").get<std::string>(), "Europe/Berlin");
}

// Cron lists use commas too: a piece without '=' belongs to the field before.
TEST(BudgetArgument, KeepsACronListWhole)
{
    const Dictionary budget = parseBudgetArgument("0,schedule=0 9,17 * * 1,3,5,duration=2h");
    EXPECT_EQ(budget.at("Schedule").get<std::string>(), "0 9,17 * * 1,3,5");
    EXPECT_EQ(budget.at("DurationUSec").get<uint64_t>(), 7'200'000'000u);
}

// What resized judges is passed on as written, to be refused there with its
// own reason.
TEST(BudgetArgument, LeavesTheValueReasonsScheduleAndZoneToTheDaemon)
{
    EXPECT_EQ(parseBudgetArgument("150%").at("Value").get<std::string>(), "150%");
    EXPECT_EQ(parseBudgetArgument("1,reasons=whim").at("Reasons").get<Strings>(), (Strings{"whim"}));
    EXPECT_EQ(parseBudgetArgument("1,schedule=never,duration=1h,timezone=Mars/Olympus").at("TimeZone")
                  .get<std::string>(),
              "Mars/Olympus");
}

TEST(BudgetArgument, RefusesWhatItCannotRead)
{
    expectRefused("period=10m", "begins with its value");
    expectRefused("2,10m", "'10m' is not KEY=VALUE");
    expectRefused("2,", "'' is not KEY=VALUE");
    expectRefused("2,every=10m", "unknown key 'every' (keys: period, reasons, schedule, duration, timezone)");
    expectRefused("2,period=soon", "period: 'soon' is not a time span");
    expectRefused("2,schedule=@daily,duration=forever", "duration: 'forever' is not a time span");
    expectRefused("2,period=1h,period=2h", "period: given twice");
}

}  // namespace
}  // namespace resized::ctl
