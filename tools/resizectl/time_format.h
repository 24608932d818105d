#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace resized::ctl {

using Clock = std::chrono::system_clock;

// "Thu 2024-01-04 10:00:00 UTC; 5min 3s ago" in the local time zone, as
// systemctl status shows times; 0 (never) is "n/a".
std::string formatTimestamp(uint64_t usecSinceEpoch, Clock::time_point now);

// "2024-01-04T10:00:00.123456Z", for machine output and event lines.
std::string formatIsoTimestamp(Clock::time_point time);

// "5min 3s", "2h 1min", "3d 4h": the two largest units, as systemd does.
std::string formatTimespan(std::chrono::microseconds span);

}  // namespace resized::ctl
