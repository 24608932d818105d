#include "resource_options.h"

#include <optional>
#include <string>

#include "arguments.h"
#include "parsed_option.h"
#include "core/quantity.h"
#include "systemd_assignment.h"

namespace resized::ctl {

core::Resources ResourceArguments::resolve() const
{
    core::Resources resources = fromOptions;
    for (const auto& assignment : assignments) {
        core::Resources assigned;
        try {
            assigned = parseSystemdAssignment(assignment);
        } catch (const AssignmentError& error) {
            throw CLI::ValidationError(error.what());
        }
        if (!resources.restrictedTo(assigned).empty())
            throw CLI::ValidationError(assignment + ": sets what another option or assignment already sets");
        resources = resources.overlaidWith(assigned);
    }
    if (resources.empty())
        throw CLI::ValidationError("name at least one resource: --cpus, --memory, --memory-high, --cpu-shares, "
                                   "--cpu-weight, --cpuset-cpus, or an assignment such as CPUQuota=150%");
    return resources;
}

void addResourceOptions(CLI::App& command, ResourceArguments& arguments)
{
    core::Resources& resources = arguments.fromOptions;
    auto* group = command.add_option_group("Resources", "What to change; resources not named stay as they are");
    addParsedOption(*group, "--cpus,--cpu", resources.cpuMillis, core::parseCpuMillis, "a CPU quantity",
                    "CPU limit in CPUs: 1.5, 2, or millicores: 1500m; 'max' for none. As podman update --cpus")
        ->type_name("CPUS");
    addParsedOption(*group, "-m,--memory", resources.memoryMax, parseMemoryArgument, "a memory quantity",
                    "Hard memory limit: 512m, 1.5g, 512Mi, bytes (k, m, g, Ki, Mi, Gi are powers of 1024); "
                    "'max' for none. As podman update --memory")
        ->type_name("BYTES");
    addParsedOption(*group, "--memory-high", resources.memoryHigh, parseMemoryArgument, "a memory quantity",
                    "Memory throttle threshold, cgroup memory.high (v1: soft limit); 'max' for none. "
                    "As systemd's MemoryHigh=; Podman has no such flag")
        ->type_name("BYTES");
    auto* shares = addParsedOption(*group, "-c,--cpu-shares", resources.cpuWeight, parseCpuSharesArgument,
                                   "a share count 1..262144",
                                   "Relative CPU share, 1024 the default, sent as the CPU weight crun gives "
                                   "it (1024 = weight 100). As podman update --cpu-shares")
                       ->type_name("SHARES");
    addParsedOption(*group, "--cpu-weight", resources.cpuWeight, parseCpuWeightArgument, "a whole number",
                    "Relative CPU weight, 1..10000, 100 the default: cgroup v2 cpu.weight. As systemd's "
                    "CPUWeight=")
        ->type_name("N")
        ->excludes(shares);
    addParsedOption(*group, "--cpuset-cpus", resources.allowedCpus, parseCpusArgument, "a CPU list",
                    "CPUs the workload may run on: 0-3,6; 'all' for every CPU. As podman update --cpuset-cpus")
        ->type_name("LIST");

    command
        .add_option("assignments", arguments.assignments,
                    "systemd-style assignments, as systemctl set-property takes them: CPUQuota=150%, "
                    "MemoryMax=1G, MemoryHigh=, CPUWeight=, AllowedCPUs=0-1")
        ->type_name("PROPERTY=VALUE");
}

}  // namespace resized::ctl
