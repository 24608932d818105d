#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "dictionary.h"
#include "time_format.h"

namespace resized::ctl {

// One thing `resizectl watch` saw, in both of its forms: a line for people
// and an object for machines (one JSON object per line with --json).
struct Event {
    std::string text;
    nlohmann::json json;
};

Event resourcesAppliedEvent(Clock::time_point time, const std::string& workload, const Dictionary& actual);
Event driftDetectedEvent(Clock::time_point time, const std::string& workload, const Dictionary& desired,
                         const Dictionary& actual);
Event updateFailedEvent(Clock::time_point time, const std::string& workload, const std::string& error,
                        const std::string& message);
// For the Manager object and each workload object; the subject is the
// workload's name, or "manager".
Event propertiesChangedEvent(Clock::time_point time, const std::string& objectPath, const Dictionary& changed,
                             const std::vector<std::string>& invalidated);
// The daemon came onto the bus (started) or left it (stopped, crashed).
Event daemonPresenceEvent(Clock::time_point time, bool present);

}  // namespace resized::ctl
