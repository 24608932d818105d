#include "core/cron.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <optional>
#include <stdexcept>
#include <vector>

namespace resized::core {
namespace {

struct Field {
    const char* name;
    unsigned low;
    unsigned high;
    // Names for low, low + 1, …; empty for none.
    std::vector<std::string_view> names;
};

const Field kMinute{"minute", 0, 59, {}};
const Field kHour{"hour", 0, 23, {}};
const Field kDay{"day of month", 1, 31, {}};
const Field kMonth{"month", 1, 12, {"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"}};
// 7 is Sunday too: folded onto 0 once parsed.
const Field kWeekday{"day of week", 0, 7, {"sun", "mon", "tue", "wed", "thu", "fri", "sat"}};

const std::array<std::pair<std::string_view, std::string_view>, 7> kMacros{{
    {"@yearly", "0 0 1 1 *"},
    {"@annually", "0 0 1 1 *"},
    {"@monthly", "0 0 1 * *"},
    {"@weekly", "0 0 * * 0"},
    {"@daily", "0 0 * * *"},
    {"@midnight", "0 0 * * *"},
    {"@hourly", "0 * * * *"},
}};

std::invalid_argument fieldError(const Field& field, std::string_view text, const std::string& why)
{
    return std::invalid_argument("the cron schedule's " + std::string(field.name) + " field \"" + std::string(text) +
                                 "\" " + why);
}

std::vector<std::string_view> split(std::string_view text, char separator)
{
    std::vector<std::string_view> parts;
    size_t begin = 0;
    for (size_t end = text.find(separator); end != std::string_view::npos; end = text.find(separator, begin)) {
        parts.push_back(text.substr(begin, end - begin));
        begin = end + 1;
    }
    parts.push_back(text.substr(begin));
    return parts;
}

std::optional<unsigned> number(std::string_view text)
{
    unsigned value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || error != std::errc() || end != text.data() + text.size())
        return std::nullopt;
    return value;
}

// One value of `field`, by number or name, within its bounds.
unsigned valueOf(const Field& field, std::string_view whole, std::string_view text)
{
    std::optional<unsigned> value = number(text);
    if (!value)
        for (size_t index = 0; index < field.names.size(); ++index)
            if (text.size() == 3 && std::equal(text.begin(), text.end(), field.names[index].begin(),
                                               [](char a, char b) { return (a | 0x20) == b; }))
                value = field.low + static_cast<unsigned>(index);
    if (!value)
        throw fieldError(field, whole, "has \"" + std::string(text) + "\", which is no " + field.name);
    if (*value < field.low || *value > field.high)
        throw fieldError(field, whole,
                         "has " + std::to_string(*value) + ", outside " + std::to_string(field.low) + "–" +
                             std::to_string(field.high));
    return *value;
}

// The values a field allows, indexed from 0.
template <size_t Size>
std::bitset<Size> parseField(const Field& field, std::string_view text)
{
    std::bitset<Size> allowed;
    if (text.empty())
        throw fieldError(field, text, "is empty");
    for (const std::string_view item : split(text, ',')) {
        const auto slash = item.find('/');
        const std::string_view range = item.substr(0, slash);
        unsigned step = 1;
        if (slash != std::string_view::npos) {
            const auto parsed = number(item.substr(slash + 1));
            if (!parsed || *parsed == 0)
                throw fieldError(field, text, "has a step that is not a positive number");
            step = *parsed;
        }
        unsigned first = field.low;
        unsigned last = field.high;
        if (range != "*") {
            const auto dash = range.find('-');
            first = valueOf(field, text, range.substr(0, dash));
            if (dash != std::string_view::npos)
                last = valueOf(field, text, range.substr(dash + 1));
            else if (slash == std::string_view::npos)
                last = first;
            if (first > last)
                throw fieldError(field, text, "has a range that ends before it begins");
        }
        // Counted so that a step beyond the field cannot wrap around.
        for (unsigned value = first;; value += step) {
            allowed.set(value);
            if (last - value < step)
                break;
        }
    }
    return allowed;
}

bool restricts(std::string_view field) { return !field.starts_with('*'); }

}  // namespace

CronSchedule CronSchedule::parse(std::string_view text)
{
    CronSchedule schedule;
    schedule.text_ = std::string(text);
    std::string fields(text);
    for (const auto& [macro, expansion] : kMacros)
        if (text == macro)
            fields = expansion;
    std::replace(fields.begin(), fields.end(), '\t', ' ');
    std::vector<std::string_view> parts;
    for (const std::string_view part : split(fields, ' '))
        if (!part.empty())
            parts.push_back(part);
    if (parts.size() != 5)
        throw std::invalid_argument("a cron schedule has five fields (minute hour day-of-month month day-of-week) "
                                    "or is one of @yearly @monthly @weekly @daily @hourly, not \"" +
                                    std::string(text) + "\"");
    schedule.minutes_ = parseField<60>(kMinute, parts[0]);
    schedule.hours_ = parseField<24>(kHour, parts[1]);
    schedule.days_ = parseField<32>(kDay, parts[2]);
    schedule.months_ = parseField<13>(kMonth, parts[3]);
    const std::bitset<8> weekdays = parseField<8>(kWeekday, parts[4]);
    for (unsigned day = 0; day < 7; ++day)
        schedule.weekdays_[day] = weekdays[day] || (day == 0 && weekdays[7]);
    schedule.daysRestricted_ = restricts(parts[2]);
    schedule.weekdaysRestricted_ = restricts(parts[4]);
    return schedule;
}

bool CronSchedule::matches(const CivilMinute& at) const
{
    if (!minutes_[at.minute] || !hours_[at.hour] || !months_[at.month])
        return false;
    const bool day = days_[at.day];
    const bool weekday = weekdays_[at.weekday];
    if (daysRestricted_ && weekdaysRestricted_)
        return day || weekday;
    return day && weekday;
}

bool windowHolds(const CronSchedule& schedule, std::chrono::microseconds duration,
                 std::chrono::sys_time<std::chrono::microseconds> now,
                 const std::function<CivilMinute(std::chrono::sys_seconds)>& civilMinuteAt)
{
    // now lies in [fire, fire + duration) exactly when fire lies in
    // (now - duration, now].
    for (auto fire = std::chrono::floor<std::chrono::minutes>(now); fire > now - duration; fire -= std::chrono::minutes(1))
        if (schedule.matches(civilMinuteAt(fire)))
            return true;
    return false;
}

std::chrono::sys_time<std::chrono::microseconds> nextWindowEdge(std::chrono::microseconds duration,
                                                                std::chrono::sys_time<std::chrono::microseconds> now)
{
    constexpr std::chrono::minutes kMinute{1};
    const std::chrono::sys_time<std::chrono::microseconds> nextOpening = std::chrono::floor<std::chrono::minutes>(now) + kMinute;
    const auto closingOffset = duration % kMinute;
    const auto nextClosing = std::chrono::floor<std::chrono::minutes>(now - closingOffset) + kMinute + closingOffset;
    return std::min(nextOpening, nextClosing);
}

}  // namespace resized::core
