#include "node_format.h"

#include <cstdint>

#include "core/quantity.h"
#include "quantity_format.h"
#include "table.h"

namespace resized::ctl {

namespace {

template <typename Format>
std::string formatProperty(const Dictionary& properties, const std::string& name, Format format)
{
    const auto value = find<uint64_t>(properties, name);
    return value ? format(*value) : "-";
}

template <typename Format>
std::vector<std::string> resourceRow(const Dictionary& properties, const std::string& resource,
                                     const std::string& prefix, const std::string& suffix, Format format)
{
    std::vector<std::string> row{resource};
    for (const char* column : {"Capacity", "Allocated", "Reserved", "Available"})
        row.push_back(formatProperty(properties, prefix + column + suffix, format));
    return row;
}

std::string formatRuntime(const Dictionary& properties)
{
    const auto connected = find<bool>(properties, "RuntimeConnected");
    if (!connected)
        return "unknown";
    return *connected ? "connected" : "disconnected";
}

}  // namespace

std::string formatNode(const Dictionary& properties, bool withLegend)
{
    std::string out;
    out += "       Version: " + lookup<std::string>(properties, "Version", "unknown") + '\n';
    out += "Cgroup version: " + lookup<std::string>(properties, "CgroupVersion", "unknown") + '\n';
    out += "       Runtime: " + formatRuntime(properties) + "\n\n";

    Table table({"RESOURCE", "CAPACITY", "ALLOCATED", "RESERVED", "AVAILABLE"});
    table.addRow(resourceRow(properties, "cpu", "Cpu", "Millis", core::formatCpuMillis));
    table.addRow(resourceRow(properties, "memory", "Memory", "", formatMemory));
    return out + table.render(withLegend);
}

}  // namespace resized::ctl
