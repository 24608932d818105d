#include "systemd_assignment.h"

#include <string>

#include "arguments.h"

namespace resized::ctl {

namespace {

constexpr uint64_t kDefaultCpuWeight = 100;

[[noreturn]] void refuse(std::string_view property, std::string_view value, std::string_view why)
{
    throw AssignmentError(std::string(property) + "=" + std::string(value) + ": " + std::string(why));
}

uint64_t cpuQuotaMillis(std::string_view value)
{
    if (value.empty())
        return core::kUnlimited;
    const auto permyriad = parseSystemdPermyriad(value);
    if (!permyriad)
        refuse("CPUQuota", value, "not a percentage such as 150% or 12.5%");
    // One millicore is a tenth of a percent.
    if (*permyriad % 10 != 0)
        refuse("CPUQuota", value, "finer than resized's unit of 0.1% (one millicore)");
    return *permyriad / 10;
}

uint64_t memoryLimit(std::string_view property, std::string_view value)
{
    if (value.empty() || value == "infinity")
        return core::kUnlimited;
    if (parseSystemdPermyriad(value))
        refuse(property, value, "a share of physical memory is not supported; give a size such as 1G");
    const auto bytes = parseSystemdSize(value);
    if (!bytes)
        refuse(property, value, "not a size such as 512M or 1.5G (K, M, G, T are powers of 1024) or infinity");
    return *bytes;
}

uint64_t cpuWeight(std::string_view value)
{
    if (value.empty())
        return kDefaultCpuWeight;
    if (value == "idle")
        refuse("CPUWeight", value, "the idle weight is not supported; give 1..10000");
    const auto weight = parseCpuWeightArgument(value);
    if (!weight)
        refuse("CPUWeight", value, "not a whole number 1..10000");
    return *weight;
}

core::CpuSet allowedCpus(std::string_view value)
{
    // systemd separates entries by commas, blanks or both.
    std::string list;
    bool separator = false;
    for (char c : value) {
        if (c == ',' || c == ' ' || c == '\t') {
            separator = !list.empty();
            continue;
        }
        if (separator)
            list += ',';
        separator = false;
        list += c;
    }
    const auto cpus = parseCpusArgument(list);
    if (!cpus || list == "all")
        refuse("AllowedCPUs", value, "not a CPU list such as 0-3,6");
    return *cpus;
}

}  // namespace

core::Resources parseSystemdAssignment(std::string_view assignment)
{
    const size_t equals = assignment.find('=');
    if (equals == std::string_view::npos)
        throw AssignmentError("'" + std::string(assignment) +
                              "' is neither an option nor a property assignment such as CPUQuota=150%");
    const std::string_view property = assignment.substr(0, equals);
    const std::string_view value = assignment.substr(equals + 1);

    core::Resources resources;
    if (property == "CPUQuota")
        resources.cpuMillis = cpuQuotaMillis(value);
    else if (property == "MemoryMax")
        resources.memoryMax = memoryLimit(property, value);
    else if (property == "MemoryHigh")
        resources.memoryHigh = memoryLimit(property, value);
    else if (property == "CPUWeight")
        resources.cpuWeight = cpuWeight(value);
    else if (property == "AllowedCPUs")
        resources.allowedCpus = allowedCpus(value);
    else
        throw AssignmentError(std::string(property) +
                              "= is not a property resizectl sets; it takes CPUQuota=, MemoryMax=, MemoryHigh=, "
                              "CPUWeight= and AllowedCPUs=");
    return resources;
}

}  // namespace resized::ctl
