#include "resource_options.h"

#include <array>
#include <optional>
#include <string>

#include "arguments.h"
#include "parsed_option.h"
#include "core/quantity.h"
#include "systemd_assignment.h"

namespace resized::ctl {

namespace {

// One resource option of `set`. Its long names without the dashes are the
// keys of its assignments (cpus=1.5), so that each resource is named and
// read in one place.
struct ResourceOption {
    std::string_view names;
    std::string_view typeName;
    std::string_view what;
    std::string_view help;
    // Stores what `text` says in `into`; false for text it cannot read.
    bool (*read)(std::string_view text, core::Resources& into);
};

template <auto Member, auto Parse>
bool readInto(std::string_view text, core::Resources& into)
{
    auto value = Parse(text);
    if (!value)
        return false;
    into.*Member = std::move(*value);
    return true;
}

using core::Resources;

constexpr std::array kResourceOptions{
    ResourceOption{"--cpus,--cpu", "CPUS", "a CPU quantity",
                   "CPU limit in CPUs: 1.5, 2, or millicores: 1500m; 'max' for none. As podman update --cpus",
                   readInto<&Resources::cpuMillis, core::parseCpuMillis>},
    ResourceOption{"-m,--memory", "BYTES", "a memory quantity",
                   "Hard memory limit: 512m, 1.5g, 512Mi, bytes (k, m, g, Ki, Mi, Gi are powers of 1024); "
                   "'max' for none. As podman update --memory",
                   readInto<&Resources::memoryMax, parseMemoryArgument>},
    ResourceOption{"--memory-high", "BYTES", "a memory quantity",
                   "Memory throttle threshold, cgroup memory.high (v1: soft limit); 'max' for none. "
                   "As systemd's MemoryHigh=; Podman has no such flag",
                   readInto<&Resources::memoryHigh, parseMemoryArgument>},
    ResourceOption{"-c,--cpu-shares", "SHARES", "a share count 1..262144",
                   "Relative CPU share, 1024 the default, sent as the CPU weight crun gives "
                   "it (1024 = weight 100). As podman update --cpu-shares",
                   readInto<&Resources::cpuWeight, parseCpuSharesArgument>},
    ResourceOption{"--cpu-weight", "N", "a whole number",
                   "Relative CPU weight, 1..10000, 100 the default: cgroup v2 cpu.weight. As systemd's "
                   "CPUWeight=",
                   readInto<&Resources::cpuWeight, parseCpuWeightArgument>},
    ResourceOption{"--cpuset-cpus", "LIST", "a CPU list",
                   "CPUs the workload may run on: 0-3,6; 'all' for every CPU. As podman update --cpuset-cpus",
                   readInto<&Resources::allowedCpus, parseCpusArgument>},
    ResourceOption{"--exclusive-cpus", "N", "a whole number",
                   "Whole CPUs for this workload alone, without a quota, under the CPU manager's static "
                   "policy; 0 gives them back to the shared pool. As kubelet gives a Guaranteed container "
                   "integer CPUs; on pod:NAME (TopologyScope=pod), a bubble for its members",
                   readInto<&Resources::exclusiveCpus, parseUnsignedArgument>},
};

// Whether `key` is one of the long names of `option`, without the dashes.
bool isKeyOf(const ResourceOption& option, std::string_view key)
{
    for (std::string_view names = option.names; !names.empty();) {
        const size_t comma = names.find(',');
        const std::string_view name = names.substr(0, comma);
        if (name.starts_with("--") && name.substr(2) == key)
            return true;
        names = comma == std::string_view::npos ? std::string_view{} : names.substr(comma + 1);
    }
    return false;
}

}  // namespace

core::Resources parseResourceAssignment(std::string_view assignment)
{
    const size_t equals = assignment.find('=');
    const std::string_view key = assignment.substr(0, equals);
    for (const auto& option : kResourceOptions) {
        if (equals == std::string_view::npos || !isKeyOf(option, key))
            continue;
        core::Resources resources;
        const std::string_view value = assignment.substr(equals + 1);
        if (!option.read(value, resources))
            throw AssignmentError(std::string(assignment) + ": '" + std::string(value) + "' is not " +
                                  std::string(option.what));
        return resources;
    }
    return parseSystemdAssignment(assignment);
}

core::Resources ResourceArguments::resolve() const
{
    core::Resources resources = fromOptions;
    for (const auto& assignment : assignments) {
        core::Resources assigned;
        try {
            assigned = parseResourceAssignment(assignment);
        } catch (const AssignmentError& error) {
            throw CLI::ValidationError(error.what());
        }
        if (!resources.restrictedTo(assigned).empty())
            throw CLI::ValidationError(assignment + ": sets what another option or assignment already sets");
        resources = resources.overlaidWith(assigned);
    }
    if (resources.empty())
        throw CLI::ValidationError("name at least one resource: --cpus, --memory, --memory-high, --cpu-shares, "
                                   "--cpu-weight, --cpuset-cpus, --exclusive-cpus, or an assignment such as "
                                   "CPUQuota=150%");
    return resources;
}

void addResourceOptions(CLI::App& command, ResourceArguments& arguments)
{
    core::Resources& resources = arguments.fromOptions;
    auto* group = command.add_option_group("Resources", "What to change; resources not named stay as they are");
    for (const auto& option : kResourceOptions)
        addReadOption(
            *group, std::string(option.names),
            [&resources, read = option.read](const std::string& text) { return read(text, resources); },
            std::string(option.what), std::string(option.help))
            ->type_name(std::string(option.typeName));
    // Both are the CPU weight.
    group->get_option("--cpu-weight")->excludes(group->get_option("--cpu-shares"));
    // A slice is its own CPUs without a quota.
    group->get_option("--exclusive-cpus")->excludes(group->get_option("--cpus"));
    group->get_option("--exclusive-cpus")->excludes(group->get_option("--cpuset-cpus"));

    command
        .add_option("assignments", arguments.assignments,
                    "Assignments, as systemctl set-property takes them: CPUQuota=150%, MemoryMax=1G, "
                    "MemoryHigh=, CPUWeight=, AllowedCPUs=0-1; or an option above without its dashes: "
                    "cpus=1.5, memory=1g")
        ->type_name("PROPERTY=VALUE");
}

}  // namespace resized::ctl
