#include "verbs/resource_options.h"

#include <optional>
#include <string>

#include "arguments.h"
#include "core/quantity.h"

namespace resized::ctl {

namespace {

// An option whose text `parse` turns into the value stored in `target`.
template <typename Value, typename Parse>
CLI::Option* addParsedOption(CLI::App& group, const std::string& name, std::optional<Value>& target, Parse parse,
                             const std::string& what, const std::string& help)
{
    return group.add_option_function<std::string>(
        name,
        [&target, parse, name, what](const std::string& text) {
            const auto value = parse(text);
            if (!value)
                throw CLI::ValidationError(name, "'" + text + "' is not " + what);
            target = *value;
        },
        help);
}

}  // namespace

void addResourceOptions(CLI::App& command, core::Resources& resources)
{
    auto* group = command.add_option_group("Resources", "What to change; resources not named stay as they are");
    addParsedOption(*group, "--cpu", resources.cpuMillis, core::parseCpuMillis, "a CPU quantity",
                    "CPU limit in CPUs: 1.5, 1500m (millicores), 2; 'max' for no limit")
        ->type_name("CPUS");
    addParsedOption(*group, "--memory", resources.memoryMax, core::parseBytes, "a memory quantity",
                    "Hard memory limit: 512Mi, 2G, 1.5Gi, bytes; 'max' for no limit")
        ->type_name("BYTES");
    addParsedOption(*group, "--memory-high", resources.memoryHigh, core::parseBytes, "a memory quantity",
                    "Memory throttle threshold (cgroup v1: soft limit); 'max' for none")
        ->type_name("BYTES");
    addParsedOption(*group, "--cpu-weight", resources.cpuWeight, parseCpuWeightArgument, "a whole number",
                    "Relative CPU weight, 1..10000 (100 is the default share)")
        ->type_name("N");
    addParsedOption(*group, "--cpus", resources.allowedCpus, parseCpusArgument, "a CPU list",
                    "CPUs the workload may run on: 0-3,6; 'all' for every CPU")
        ->type_name("LIST");
    group->require_option(1, 0);
}

}  // namespace resized::ctl
