#include "core/cron.h"

#include <gtest/gtest.h>

#include <stdexcept>

// Cron schedules as crontab(5) writes them, and the windows they open.
namespace resized::core {
namespace {

using namespace std::chrono_literals;

// Wednesday 2026-12-02 at hh:mm.
CivilMinute wednesday(unsigned hour, unsigned minute)
{
    return {.month = 12, .day = 2, .weekday = 3, .hour = hour, .minute = minute};
}

std::string errorOf(std::string_view text)
{
    try {
        CronSchedule::parse(text);
    } catch (const std::invalid_argument& error) {
        return error.what();
    }
    return "";
}

TEST(CronSchedule, MatchesNumbersRangesStepsAndLists)
{
    const auto schedule = CronSchedule::parse("0,30 9-17/4 * * *");
    EXPECT_TRUE(schedule.matches(wednesday(9, 0)));
    EXPECT_TRUE(schedule.matches(wednesday(13, 30)));
    EXPECT_TRUE(schedule.matches(wednesday(17, 0)));
    EXPECT_FALSE(schedule.matches(wednesday(10, 0)));
    EXPECT_FALSE(schedule.matches(wednesday(9, 15)));
    EXPECT_FALSE(schedule.matches(wednesday(21, 0)));
    // A single value with a step runs to the end of the field.
    const auto fromFive = CronSchedule::parse("5/20 * * * *");
    EXPECT_TRUE(fromFive.matches(wednesday(1, 45)));
    EXPECT_FALSE(fromFive.matches(wednesday(1, 0)));
    EXPECT_EQ(fromFive.text(), "5/20 * * * *");
}

TEST(CronSchedule, TakesNamesSundayAsSevenAndMacros)
{
    const auto weekdays = CronSchedule::parse("0 9 * JAN-dec mon-Fri");
    EXPECT_TRUE(weekdays.matches(wednesday(9, 0)));
    EXPECT_FALSE(weekdays.matches({.month = 12, .day = 6, .weekday = 0, .hour = 9, .minute = 0}));
    const auto sunday = CronSchedule::parse("0 0 * * 7");
    EXPECT_TRUE(sunday.matches({.month = 12, .day = 6, .weekday = 0, .hour = 0, .minute = 0}));
    EXPECT_FALSE(sunday.matches(wednesday(0, 0)));
    EXPECT_TRUE(CronSchedule::parse("@daily").matches(wednesday(0, 0)));
    EXPECT_FALSE(CronSchedule::parse("@daily").matches(wednesday(0, 1)));
    EXPECT_TRUE(CronSchedule::parse("@hourly").matches(wednesday(7, 0)));
    EXPECT_TRUE(CronSchedule::parse("@yearly").matches({.month = 1, .day = 1, .weekday = 4, .hour = 0, .minute = 0}));
}

// As in cron: restricting both the day of the month and of the week
// matches either; restricting one matches that one.
TEST(CronSchedule, ADayMatchesEitherRestrictedDayField)
{
    const auto either = CronSchedule::parse("0 0 1 * mon");
    EXPECT_TRUE(either.matches({.month = 12, .day = 1, .weekday = 2, .hour = 0, .minute = 0}));
    EXPECT_TRUE(either.matches({.month = 12, .day = 7, .weekday = 1, .hour = 0, .minute = 0}));
    EXPECT_FALSE(either.matches({.month = 12, .day = 8, .weekday = 2, .hour = 0, .minute = 0}));
    const auto firstOnly = CronSchedule::parse("0 0 1 * *");
    EXPECT_FALSE(firstOnly.matches({.month = 12, .day = 7, .weekday = 1, .hour = 0, .minute = 0}));
}

TEST(CronSchedule, RefusesWhatCronWouldNotRunAndSaysWhy)
{
    EXPECT_EQ(errorOf("0 9 * *"), "a cron schedule has five fields (minute hour day-of-month month day-of-week) "
                                  "or is one of @yearly @monthly @weekly @daily @hourly, not \"0 9 * *\"");
    EXPECT_EQ(errorOf("60 * * * *"), "the cron schedule's minute field \"60\" has 60, outside 0–59");
    EXPECT_EQ(errorOf("* 5-2 * * *"), "the cron schedule's hour field \"5-2\" has a range that ends before it begins");
    EXPECT_EQ(errorOf("*/0 * * * *"), "the cron schedule's minute field \"*/0\" has a step that is not a positive number");
    EXPECT_EQ(errorOf("* * 0 * *"), "the cron schedule's day of month field \"0\" has 0, outside 1–31");
    EXPECT_EQ(errorOf("* * * foo *"), "the cron schedule's month field \"foo\" has \"foo\", which is no month");
    EXPECT_EQ(errorOf("* * * * 1,,2"), "the cron schedule's day of week field \"1,,2\" has \"\", which is no day of week");
    EXPECT_EQ(errorOf("@reboot"), "a cron schedule has five fields (minute hour day-of-month month day-of-week) "
                                  "or is one of @yearly @monthly @weekly @daily @hourly, not \"@reboot\"");
    EXPECT_EQ(errorOf("* * * * -1"), "the cron schedule's day of week field \"-1\" has \"\", which is no day of week");
}

// The wall clock of UTC+1 at a moment, without daylight saving.
CivilMinute utcPlusOne(std::chrono::sys_seconds moment)
{
    const auto local = moment + 1h;
    const auto day = std::chrono::floor<std::chrono::days>(local);
    const std::chrono::year_month_day date{day};
    const std::chrono::hh_mm_ss time{std::chrono::floor<std::chrono::minutes>(local - day)};
    return {.month = static_cast<unsigned>(date.month()),
            .day = static_cast<unsigned>(date.day()),
            .weekday = std::chrono::weekday{day}.c_encoding(),
            .hour = static_cast<unsigned>(time.hours().count()),
            .minute = static_cast<unsigned>(time.minutes().count())};
}

TEST(CronWindow, HoldsFromEachFiringForItsDurationOnTheZonesClock)
{
    // Weekdays from 09:00 local, for 8 hours.
    const auto nineToFive = CronSchedule::parse("0 9 * * mon-fri");
    const auto wednesdayUtc = std::chrono::sys_days{std::chrono::year{2026} / 12 / 2};
    const auto at = [&](std::chrono::seconds utc) {
        return windowHolds(nineToFive, 8h, wednesdayUtc + utc, utcPlusOne);
    };
    EXPECT_FALSE(at(7h + 59min + 59s));  // 08:59:59 local
    EXPECT_TRUE(at(8h));                 // 09:00 local: it opens
    EXPECT_TRUE(at(15h + 59min + 59s));
    EXPECT_FALSE(at(16h));  // 17:00 local: it has closed
    // Saturday 2026-12-05: no window opens.
    EXPECT_FALSE(windowHolds(nineToFive, 8h, std::chrono::sys_days{std::chrono::year{2026} / 12 / 5} + 10h,
                             utcPlusOne));
    // A window longer than the time between firings holds throughout.
    EXPECT_TRUE(windowHolds(CronSchedule::parse("@hourly"), 90min, wednesdayUtc + 3h + 59min, utcPlusOne));
}

TEST(CronWindow, MayNextOpenAtAMinutesStartAndCloseItsDurationAfterOne)
{
    const std::chrono::sys_time<std::chrono::microseconds> ten{std::chrono::sys_days{std::chrono::year{2026} / 12 / 2} + 10h};
    // A window of 90 s closes 30 s past a minute's start.
    EXPECT_EQ(nextWindowEdge(90s, ten), ten + 30s);
    EXPECT_EQ(nextWindowEdge(90s, ten + 29s), ten + 30s);
    EXPECT_EQ(nextWindowEdge(90s, ten + 30s), ten + 1min);
    EXPECT_EQ(nextWindowEdge(90s, ten + 45s), ten + 1min);
    // One of whole minutes opens and closes at the start of one.
    EXPECT_EQ(nextWindowEdge(8h, ten), ten + 1min);
    EXPECT_EQ(nextWindowEdge(8h, ten + 1us), ten + 1min);
}

}  // namespace
}  // namespace resized::core
