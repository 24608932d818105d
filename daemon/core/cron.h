#pragma once

#include <bitset>
#include <chrono>
#include <functional>
#include <string>
#include <string_view>

namespace resized::core {

// A minute of a wall clock, in some time zone: what a cron schedule reads.
struct CivilMinute {
    unsigned month = 1;    // 1–12
    unsigned day = 1;      // 1–31
    unsigned weekday = 0;  // 0 = Sunday … 6 = Saturday
    unsigned hour = 0;     // 0–23
    unsigned minute = 0;   // 0–59
};

// A schedule of five fields as crontab(5) writes them, and Karpenter's
// disruption budgets after it: minute, hour, day of month, month, day of
// week. A field is `*`, a number or a range `a-b`, either with a step `/n`,
// or a comma-separated list of these; months and days of the week may also
// be given by their English three-letter names (`jan`, `mon`), and 7 is
// Sunday as 0 is. The macros @yearly (@annually), @monthly, @weekly, @daily
// (@midnight) and @hourly stand for their five fields. As in cron, when both
// the day of the month and the day of the week are restricted, a day that
// matches either matches.
class CronSchedule {
public:
    // Throws std::invalid_argument saying which field is wrong and why.
    static CronSchedule parse(std::string_view text);

    bool matches(const CivilMinute& minute) const;
    // As the caller wrote it.
    const std::string& text() const { return text_; }
    bool operator==(const CronSchedule& other) const { return text_ == other.text_; }

private:
    std::bitset<60> minutes_;
    std::bitset<24> hours_;
    std::bitset<32> days_;
    std::bitset<13> months_;
    std::bitset<7> weekdays_;
    bool daysRestricted_ = false;
    bool weekdaysRestricted_ = false;
    std::string text_;
};

// Whether `now` lies in a window of `duration` opened by `schedule` at the
// start of a matching minute: in [fire, fire + duration) for some fire.
// `civilMinuteAt` gives the wall clock of the schedule's time zone at a
// moment; minutes a daylight-saving change skips never fire, and those it
// repeats fire twice.
bool windowHolds(const CronSchedule& schedule, std::chrono::microseconds duration,
                 std::chrono::sys_time<std::chrono::microseconds> now,
                 const std::function<CivilMinute(std::chrono::sys_seconds)>& civilMinuteAt);

// The first moment after `now` at which a window of `duration` may open or
// close, whatever its schedule: windows open at the start of a minute (of
// the UTC clock as of any time zone's, whose offsets are whole minutes) and
// close `duration` later.
std::chrono::sys_time<std::chrono::microseconds> nextWindowEdge(std::chrono::microseconds duration,
                                                                std::chrono::sys_time<std::chrono::microseconds> now);

}  // namespace resized::core
