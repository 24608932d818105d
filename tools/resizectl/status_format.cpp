#include "status_format.h"

#include <algorithm>
#include <cstdint>
#include <utility>

#include "core/quantity.h"
#include "quantity_format.h"

namespace resized::ctl {

namespace {

std::string formatGeneration(const Dictionary& status)
{
    return std::to_string(lookup<uint64_t>(status, "Generation")) + " (observed " +
           std::to_string(lookup<uint64_t>(status, "ObservedGeneration")) + ")";
}

template <typename Format>
std::string formatOptional(const std::optional<uint64_t>& value, Format format)
{
    return value ? format(*value) : "-";
}

// CPU and MEMORY: the limits actually in force, "-" where there is none.
void addLimitCells(std::vector<std::string>& cells, const Dictionary& actualDictionary)
{
    const core::Resources actual = resourcesFromDictionary(actualDictionary);
    cells.push_back(formatOptional(actual.cpuMillis, core::formatCpuMillis));
    cells.push_back(formatOptional(actual.memoryMax, formatMemory));
}

// NAME SYNC UPDATE CPU MEMORY.
std::vector<std::string> statusCells(const Dictionary& status)
{
    std::vector<std::string> cells{lookup<std::string>(status, "Workload"),
                                   lookup<std::string>(status, "SyncState", "unknown"),
                                   lookup<std::string>(status, "UpdateState", "unknown")};
    addLimitCells(cells, lookup<Dictionary>(status, "Actual"));
    return cells;
}

std::string orDash(const std::string& text) { return text.empty() ? "-" : text; }

// The Actual line: what the cgroup held when the daemon last read it, which
// is in force only while the workload has a cgroup.
std::string describeActual(const Dictionary& status)
{
    const std::string runState = lookup<std::string>(status, "RunState");
    const auto actual = lookup<Dictionary>(status, "Actual");
    if (!runState.empty() && runState != "running" && runState != "paused")
        return "none in force (" + runState + ")";
    // Running, and nothing read yet: a change deferred before its first.
    if (actual.empty())
        return "not read yet";
    return describeResources(actual);
}

}  // namespace

std::string describeResources(const Dictionary& resources)
{
    return describeLimits(resourcesFromDictionary(resources));
}

std::string formatStatusBlock(const Dictionary& status, Clock::time_point now)
{
    const auto desired = lookup<Dictionary>(status, "Desired");
    const std::string message = lookup<std::string>(status, "Message");

    std::vector<StatusField> fields;
    // A field the workload has no value for now (no cgroup while stopped, no
    // pool) would be an empty or misleading line: left out.
    const auto addIfGiven = [&](const std::string& label, const std::string& key) {
        if (const std::string value = lookup<std::string>(status, key); !value.empty())
            fields.emplace_back(label, value);
    };
    addIfGiven("State", "RunState");
    addIfGiven("Container", "ContainerId");
    addIfGiven("Cgroup", "CgroupPath");
    addIfGiven("Driver", "Driver");
    addIfGiven("Pool", "Pool");
    fields.insert(fields.end(), {
        {"Desired", describeResources(desired)},
        {"Actual", describeActual(status)},
        {"Sync state", lookup<std::string>(status, "SyncState", "unknown")},
        {"Update state", lookup<std::string>(status, "UpdateState", "unknown")},
    });
    if (!message.empty())
        fields.emplace_back("Message", readableSizes(message));
    fields.emplace_back("Generation", formatGeneration(status));
    fields.emplace_back("Updated", formatTimestamp(lookup<uint64_t>(status, "UpdatedAtUSec"), now));

    return formatFieldBlock(lookup<std::string>(status, "Workload"), fields);
}

std::string formatFieldBlock(const std::string& title, const std::vector<StatusField>& fields)
{
    size_t labelWidth = 0;
    for (const auto& field : fields)
        labelWidth = std::max(labelWidth, field.first.size());

    std::string out = "● " + title + '\n';
    // A value of several lines goes on under its first, as systemctl lists
    // a unit's Docs.
    const std::string continuation = '\n' + std::string(labelWidth + 6, ' ');
    for (const auto& [label, value] : fields) {
        // Right-aligned labels, indented under the bullet like systemctl.
        out.append(labelWidth - label.size() + 4, ' ');
        out += label + ": ";
        for (const char c : value) {
            if (c == '\n')
                out += continuation;
            else
                out += c;
        }
        out += '\n';
    }
    return out;
}

Table makeStatusTable(const std::vector<Dictionary>& statuses)
{
    Table table({"NAME", "SYNC", "UPDATE", "CPU", "MEMORY"});
    for (const auto& status : statuses)
        table.addRow(statusCells(status));
    return table;
}

Table makeListTable(const std::vector<ListedWorkload>& workloads)
{
    Table table({"NAME", "MANAGED", "STATE", "SYNC", "UPDATE", "CPU", "MEMORY"});
    for (const auto& workload : workloads) {
        std::vector<std::string> cells{lookup<std::string>(workload.entry, "Name"),
                                       lookup<bool>(workload.entry, "Managed") ? "yes" : "no",
                                       lookup<std::string>(workload.entry, "RunState", "unknown"),
                                       orDash(workload.syncState), orDash(workload.updateState)};
        addLimitCells(cells, lookup<Dictionary>(workload.entry, "Actual"));
        table.addRow(cells);
    }
    return table;
}

nlohmann::json toJson(const ListedWorkload& workload)
{
    nlohmann::json object = toJson(workload.entry);
    if (!workload.objectPath.empty()) {
        object["SyncState"] = workload.syncState;
        object["UpdateState"] = workload.updateState;
        object["ObjectPath"] = workload.objectPath;
    }
    return object;
}

}  // namespace resized::ctl
