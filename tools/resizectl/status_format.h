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

// One line of `resizectl list`: a container's status, whether resized
// manages it, and for a managed one its D-Bus object.
struct ListedWorkload {
    Dictionary status;
    bool managed = false;
    std::string objectPath;
};

// NAME MANAGED SYNC UPDATE CPU MEMORY, limits read back from the cgroup.
Table makeListTable(const std::vector<ListedWorkload>& workloads);
// The status dictionary's keys plus Managed and, for a managed workload,
// ObjectPath.
nlohmann::json toJson(const ListedWorkload& workload);

// "cpu=1500m memory.max=512Mi", or "none" for an empty set.
std::string describeResources(const Dictionary& resources);

}  // namespace resized::ctl
