#include "time_format.h"

#include <array>
#include <cstdio>
#include <ctime>
#include <utility>

namespace resized::ctl {

using namespace std::chrono_literals;

std::string formatTimestamp(uint64_t usecSinceEpoch, Clock::time_point now)
{
    if (usecSinceEpoch == 0)
        return "n/a";
    const Clock::time_point when{std::chrono::microseconds(usecSinceEpoch)};
    const std::time_t seconds = Clock::to_time_t(when);
    std::tm local{};
    localtime_r(&seconds, &local);
    std::array<char, 64> text{};
    std::strftime(text.data(), text.size(), "%a %Y-%m-%d %H:%M:%S %Z", &local);

    const auto age = now - when;
    const auto shown = age < 0s ? -age : age;
    // Whole seconds, and milliseconds only for what is younger than a second.
    const auto rounded = shown >= 1s ? std::chrono::duration_cast<std::chrono::microseconds>(
                                           std::chrono::duration_cast<std::chrono::seconds>(shown))
                                     : std::chrono::duration_cast<std::chrono::microseconds>(
                                           std::chrono::duration_cast<std::chrono::milliseconds>(shown));
    if (age < 0s)
        return std::string(text.data()) + "; in " + formatTimespan(rounded);
    return std::string(text.data()) + "; " + formatTimespan(rounded) + " ago";
}

std::string formatIsoTimestamp(Clock::time_point time)
{
    const auto sinceEpoch = std::chrono::duration_cast<std::chrono::microseconds>(time.time_since_epoch());
    const std::time_t seconds = sinceEpoch.count() / 1'000'000;
    std::tm utc{};
    gmtime_r(&seconds, &utc);
    std::array<char, 32> date{};
    std::strftime(date.data(), date.size(), "%Y-%m-%dT%H:%M:%S", &utc);
    std::array<char, 48> text{};
    std::snprintf(text.data(), text.size(), "%s.%06lldZ", date.data(),
                  static_cast<long long>(sinceEpoch.count() % 1'000'000));
    return text.data();
}

std::string formatTimespan(std::chrono::microseconds span)
{
    using namespace std::chrono;
    static constexpr std::array<std::pair<const char*, microseconds>, 6> kUnits{{
        {"d", duration_cast<microseconds>(hours(24))},
        {"h", duration_cast<microseconds>(hours(1))},
        {"min", duration_cast<microseconds>(minutes(1))},
        {"s", duration_cast<microseconds>(seconds(1))},
        {"ms", duration_cast<microseconds>(milliseconds(1))},
        {"us", microseconds(1)},
    }};
    constexpr int kMostUnitsShown = 2;
    std::string text;
    int unitsShown = 0;
    for (const auto& [name, length] : kUnits) {
        const auto count = span / length;
        if (count == 0) {
            // After the first unit shown, a zero ends the precision: "2h", not "2h 0min".
            if (unitsShown > 0)
                break;
            continue;
        }
        if (!text.empty())
            text += ' ';
        text += std::to_string(count) + name;
        span -= count * length;
        if (++unitsShown == kMostUnitsShown)
            break;
    }
    return text.empty() ? "0s" : text;
}

}  // namespace resized::ctl
