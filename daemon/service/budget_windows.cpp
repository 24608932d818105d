#include "service/budget_windows.h"

#include <date/tz.h>
#include <spdlog/spdlog.h>

#include <stdexcept>

namespace resized::service {
namespace {

core::CivilMinute civilMinuteAt(const date::time_zone& zone, std::chrono::sys_seconds moment)
{
    const auto local = zone.to_local(moment);
    const auto day = date::floor<date::days>(local);
    const date::year_month_day date{day};
    const date::hh_mm_ss time{std::chrono::floor<std::chrono::minutes>(local - day)};
    return {
        .month = static_cast<unsigned>(date.month()),
        .day = static_cast<unsigned>(date.day()),
        .weekday = date::weekday{day}.c_encoding(),
        .hour = static_cast<unsigned>(time.hours().count()),
        .minute = static_cast<unsigned>(time.minutes().count()),
    };
}

bool windowHolds(const core::DisruptionBudget::Window& window, uint64_t nowUsec)
{
    const date::time_zone* zone = date::locate_zone(window.timeZone);
    return core::windowHolds(window.schedule, std::chrono::microseconds(window.durationUsec),
                             std::chrono::sys_time<std::chrono::microseconds>(std::chrono::microseconds(nowUsec)),
                             [zone](std::chrono::sys_seconds moment) { return civilMinuteAt(*zone, moment); });
}

}  // namespace

bool knownTimeZone(const std::string& name)
{
    try {
        date::locate_zone(name);
        return true;
    } catch (const std::runtime_error&) {
        return false;
    }
}

std::vector<core::DisruptionBudget> budgetsInForce(const std::vector<core::DisruptionBudget>& budgets,
                                                   uint64_t nowUsec)
{
    std::vector<core::DisruptionBudget> inForce;
    for (const auto& budget : budgets) {
        if (!budget.window) {
            inForce.push_back(budget);
            continue;
        }
        try {
            if (windowHolds(*budget.window, nowUsec))
                inForce.push_back(budget);
        } catch (const std::runtime_error& error) {
            spdlog::warn("a disruption budget's window ({} in {}) cannot be evaluated, so it allows nothing: {}",
                         budget.window->schedule.text(), budget.window->timeZone, error.what());
            core::DisruptionBudget none = budget;
            none.value = 0;
            none.percent = false;
            inForce.push_back(std::move(none));
        }
    }
    return inForce;
}

}  // namespace resized::service
