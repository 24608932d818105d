#pragma once

#include <string>
#include <utility>
#include <vector>

#include "dictionary.h"
#include "table.h"
#include "time_format.h"

namespace resized::ctl {

// A label and its value in a detailed block.
using StatusField = std::pair<std::string, std::string>;

// "● TITLE", then a line per field, labels right-aligned under the bullet,
// the way `systemctl status` shows a unit; the further lines of a value are
// aligned under its first.
std::string formatFieldBlock(const std::string& title, const std::vector<StatusField>& fields);

// One workload in detail, the way `systemctl status` shows a unit.
std::string formatStatusBlock(const Dictionary& status, Clock::time_point now);

// Workloads side by side: NAME SYNC UPDATE CPU MEMORY, with the limits
// actually in force (read back from the cgroup).
Table makeStatusTable(const std::vector<Dictionary>& statuses);

// One line of `resizectl list`: an entry of ListNodeWorkloads (Name, Kind,
// Managed, Pod, Pool, RunState, Actual) and, for a workload resized
// manages, its sync and update state and its D-Bus object ("" otherwise).
struct ListedWorkload {
    Dictionary entry;
    std::string syncState;
    std::string updateState;
    std::string objectPath;
};

// NAME MANAGED STATE SYNC UPDATE CPU MEMORY, limits read back from the
// cgroup ("-" where there are none).
Table makeListTable(const std::vector<ListedWorkload>& workloads);
// The entry's keys plus, for a managed workload, SyncState, UpdateState and
// ObjectPath.
nlohmann::json toJson(const ListedWorkload& workload);

// "cpu=1500m memory.max=512Mi", or "none" for an empty set.
std::string describeResources(const Dictionary& resources);

}  // namespace resized::ctl
