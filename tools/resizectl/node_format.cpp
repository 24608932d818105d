#include "node_format.h"

#include <algorithm>
#include <cstdint>

#include "core/cpuset.h"
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

// A CPU list property: "-" for an empty list (no CPU), "unknown" when a
// daemon without a CPU manager does not have the property.
std::string formatCpuList(const Dictionary& properties, const std::string& name)
{
    const auto cpus = find<std::string>(properties, name);
    if (!cpus)
        return "unknown";
    if (cpus->empty())
        return "-";
    // The count beside the list: "Exclusive CPUs: 0" alone reads as a count
    // next to "NUMA nodes: 1", when it is CPU number 0.
    const auto set = core::parseCpuSet(*cpus);
    if (!set)
        return *cpus;
    return *cpus + " (" + std::to_string(set->size()) + (set->size() == 1 ? " CPU)" : " CPUs)");
}

std::string formatCpuManagerPolicy(const Dictionary& properties)
{
    const auto policy = find<std::string>(properties, "CpuManagerPolicy");
    return policy ? "policy " + *policy : "unknown";
}

std::string formatNumaNodes(const Dictionary& properties)
{
    const auto nodes = find<uint32_t>(properties, "NumaNodes");
    return nodes ? std::to_string(*nodes) : "unknown";
}

}  // namespace

std::vector<HeldSlice> slicesOf(const std::vector<Dictionary>& statuses)
{
    std::vector<HeldSlice> slices;
    for (const auto& status : statuses) {
        const auto desired = find<Dictionary>(status, "Desired");
        if (!desired || find<uint64_t>(*desired, "ExclusiveCpus").value_or(0) == 0)
            continue;
        slices.push_back({lookup<std::string>(status, "Workload", "?"),
                          lookup<std::string>(*desired, "AllowedCpus", "?"), lookup<std::string>(status, "Pod", "")});
    }
    return slices;
}

std::string formatNode(const Dictionary& properties, const std::vector<HeldSlice>& slices, bool withLegend)
{
    std::string out;
    out += "       Version: " + lookup<std::string>(properties, "Version", "unknown") + '\n';
    out += "Cgroup version: " + lookup<std::string>(properties, "CgroupVersion", "unknown") + '\n';
    out += "       Runtime: " + formatRuntime(properties) + "\n\n";

    out += "   CPU manager: " + formatCpuManagerPolicy(properties) + '\n';
    out += "    NUMA nodes: " + formatNumaNodes(properties) + '\n';
    out += "   Shared CPUs: " + formatCpuList(properties, "SharedCpus") + '\n';
    out += " Reserved CPUs: " + formatCpuList(properties, "ReservedCpus") + '\n';
    out += "Exclusive CPUs: " + formatCpuList(properties, "ExclusiveCpuSet") + '\n';
    const auto holdsBubble = [&slices](const std::string& pod) {
        return !pod.empty() && std::any_of(slices.begin(), slices.end(),
                                           [&pod](const HeldSlice& slice) { return slice.workload == "pod:" + pod; });
    };
    for (const auto& slice : slices) {
        if (holdsBubble(slice.pod))
            continue;
        const bool bubble = slice.workload.starts_with("pod:");
        out += "                " + slice.cpus + ' ' + slice.workload + (bubble ? " (bubble)" : "") + '\n';
        for (const auto& member : slices)
            if (bubble && "pod:" + member.pod == slice.workload)
                out += "                  " + member.cpus + ' ' + member.workload + '\n';
    }
    out += '\n';

    Table table({"RESOURCE", "CAPACITY", "ALLOCATED", "RESERVED", "AVAILABLE"});
    table.addRow(resourceRow(properties, "cpu", "Cpu", "Millis", core::formatCpuMillis));
    table.addRow(resourceRow(properties, "memory", "Memory", "", formatMemory));
    return out + table.render(withLegend);
}

}  // namespace resized::ctl
