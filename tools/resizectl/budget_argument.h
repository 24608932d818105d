#pragma once

#include <stdexcept>
#include <string_view>

#include "dictionary.h"

namespace resized::ctl {

// The keys of a budget, in SetPool's spec and in io.resized1.Pool's Budgets.
namespace budget_key {
inline constexpr const char* kValue = "Value";
inline constexpr const char* kPeriod = "PeriodUSec";
inline constexpr const char* kReasons = "Reasons";
inline constexpr const char* kSchedule = "Schedule";
inline constexpr const char* kDuration = "DurationUSec";
inline constexpr const char* kTimeZone = "TimeZone";
}  // namespace budget_key

// A `--budget` that cannot be read; what() says why.
class InvalidBudgetArgument : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

// One disruption budget as `pool set --budget` reads it: its value ("2",
// "25%"), then comma-separated KEY=VALUE fields: period=TIME,
// reasons=REASON[+REASON...], schedule=CRON, duration=TIME, timezone=ZONE,
// TIME a systemd time span. A field without '=' continues the one before,
// so a cron list ("schedule=0 9 * * 1,3,5") stays whole. Answers the budget
// as SetPool's Budgets entry; what the daemon judges (the value, the
// reasons, the schedule, the time zone) is passed on unchecked. Throws
// InvalidBudgetArgument.
Dictionary parseBudgetArgument(std::string_view text);

}  // namespace resized::ctl
