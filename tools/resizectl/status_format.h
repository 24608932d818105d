#pragma once

#include <string>
#include <vector>

#include "dictionary.h"
#include "table.h"
#include "time_format.h"

namespace resized::ctl {

// One workload in detail, the way `systemctl status` shows a unit.
std::string formatStatusBlock(const Dictionary& status, Clock::time_point now);

// Workloads side by side: NAME SYNC UPDATE CPU MEMORY, with the limits
// actually in force (read back from the cgroup).
Table makeStatusTable(const std::vector<Dictionary>& statuses);

// "cpu=1500m memory.max=512Mi", or "none" for an empty set.
std::string describeResources(const Dictionary& resources);

}  // namespace resized::ctl
