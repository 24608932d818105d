// CronSchedule::parse: any text is a schedule or std::invalid_argument,
// never a crash, a hang or a bit outside its field; a schedule reads every
// minute of a day without fault, and its text parses to the same schedule.

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string_view>

#include "core/cron.h"
#include "fuzz_check.h"

using namespace resized::core;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    CronSchedule schedule;
    try {
        schedule = CronSchedule::parse(text);
    } catch (const std::invalid_argument&) {
        return 0;
    }
    FUZZ_CHECK(schedule.text() == text);
    const CronSchedule again = CronSchedule::parse(schedule.text());
    for (unsigned weekday = 0; weekday < 7; ++weekday)
        for (unsigned hour = 0; hour < 24; ++hour)
            for (unsigned minute = 0; minute < 60; ++minute) {
                const CivilMinute at{.month = 1 + weekday, .day = 1 + 4 * weekday, .weekday = weekday, .hour = hour,
                                     .minute = minute};
                FUZZ_CHECK(schedule.matches(at) == again.matches(at));
            }
    return 0;
}
