#include "resource_options.h"

#include <algorithm>
#include <array>
#include <optional>
#include <string>

#include "arguments.h"
#include "dictionary.h"
#include "parsed_option.h"
#include "quantity_format.h"
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
                   "CPU limit in CPUs: 1.5, 2, or millicores: 1500m; 'max' for none. As podman update --cpus; "
                   "finer than a millicore (1.23456) is rounded to the nearest one",
                   readInto<&Resources::cpuMillis, parsePodmanCpus>},
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

namespace {

// Podman's default CPU period, 100 ms, which --cpu-quota is counted against.
constexpr uint64_t kPodmanCpuPeriod = 100'000;

// The D-Bus keys `resources` names, each with `words`.
void recordWords(const core::Resources& resources, const std::string& words, std::map<std::string, std::string>& into)
{
    for (const auto& [key, value] : toDictionary(resources))
        into[key] = words;
}

// The CPU limit of Podman's --cpu-quota and --cpu-period, to the nearest
// millicore (at least 1m) as --cpus is.
uint64_t millisOfQuota(uint64_t quota, uint64_t period)
{
    if (quota == core::kUnlimited)
        return core::kUnlimited;
    using Wide = unsigned __int128;
    const Wide millis = (static_cast<Wide>(quota) * 2000 + period) / (2 * static_cast<Wide>(period));
    return std::max<uint64_t>(static_cast<uint64_t>(std::min<Wide>(millis, core::kMaxCpuMillis + 1)),
                              core::kMinCpuMillis);
}

// The value part of "--memory 1m" or "MemoryMax=1M".
std::string valueOf(const std::string& words)
{
    const size_t blank = words.find_first_of(" =");
    return blank == std::string::npos ? words : words.substr(blank + 1);
}

// What was rounded, said once for the CPU limit: a quota per period, or a
// --cpus that only parsePodmanCpus reads, is not a whole millicore count.
// (systemd's CPUQuota= finer than a millicore is refused, not rounded.)
std::optional<std::string> roundingNote(const ResourceArguments& arguments, const ResourceRequest& request)
{
    const auto words = request.words.find("CpuMillis");
    if (!request.resources.cpuMillis || words == request.words.end())
        return std::nullopt;
    const uint64_t millis = *request.resources.cpuMillis;
    bool rounded = false;
    if (arguments.cpuQuota) {
        using Wide = unsigned __int128;
        rounded = *arguments.cpuQuota != core::kUnlimited &&
                  static_cast<Wide>(*arguments.cpuQuota) * 1000 % arguments.cpuPeriod.value_or(kPodmanCpuPeriod) != 0;
    } else {
        const std::string value = valueOf(words->second);
        rounded = parsePodmanCpus(value) && !core::parseCpuMillis(value);
    }
    if (!rounded)
        return std::nullopt;
    return words->second + ": rounded to " + formatCpus(millis) + " CPUs (" + core::formatCpuMillis(millis) +
           "); resized keeps CPU limits in whole millicores";
}

// "below the smallest memory limit, 4Mi", in the units of `typed`.
std::optional<std::string> memoryRangeViolation(uint64_t bytes, const std::string& typed)
{
    if (bytes == core::kUnlimited)
        return std::nullopt;
    if (bytes < core::kMinMemory)
        return "below the smallest memory limit, " + formatMemoryLike(core::kMinMemory, typed) + "; 'max' for none";
    if (bytes > core::kMaxMemory)
        return "above the largest memory limit, " + formatMemoryLike(core::kMaxMemory, typed) + "; 'max' for none";
    return std::nullopt;
}

// A Podman flag that has no meaning here: given, it is refused with why and
// what comes nearest, instead of CLI11's bare "not expected".
void addRefusedOption(CLI::Option_group& group, const std::string& name, const std::string& why)
{
    group.add_option_function<std::string>(
             name, [name, why](const std::string&) { throw CLI::ValidationError(name, why); }, "Not taken: " + why)
        ->type_name("BYTES");
}

// podman update's flags beyond those of kResourceOptions: the CPU quota
// and period, which make a CPU limit, and those resized cannot honour.
void addPodmanOptions(CLI::App& command, ResourceArguments& arguments)
{
    auto* group = command.add_option_group(
        "Podman options", "podman update's other resource flags, and what they mean to resized");
    auto* quota = addReadOption(
                      *group, "--cpu-quota",
                      [&arguments](const std::string& text) {
                          // Podman reads -1 as no limit.
                          const auto quota = text == "-1" ? std::optional(core::kUnlimited)
                                                          : parseUnsignedArgument(text);
                          if (!quota || *quota == 0)
                              return false;
                          arguments.cpuQuota = quota;
                          return true;
                      },
                      "a positive number of microseconds or -1",
                      "CPU time per period, in microseconds; with --cpu-period (default 100000) it is the CPU "
                      "limit quota/period CPUs, rounded to a millicore; -1 for none. As podman update --cpu-quota")
                      ->type_name("USEC");
    quota->excludes(command.get_option("--cpus"));
    addReadOption(
        *group, "--cpu-period",
        [&arguments](const std::string& text) {
            arguments.cpuPeriod = parseUnsignedArgument(text);
            return arguments.cpuPeriod && *arguments.cpuPeriod >= 1000 && *arguments.cpuPeriod <= 1'000'000;
        },
        "a period of 1000..1000000 microseconds",
        "The period --cpu-quota is counted in, in microseconds (default 100000). resized keeps only the rate: "
        "the cgroup keeps its own period. As podman update --cpu-period")
        ->type_name("USEC");
    addRefusedOption(*group, "--memory-reservation",
                     "resized does not manage memory.low, the protection from reclaim Podman writes for it on "
                     "cgroup v2; the nearest is --memory-high, the throttle threshold (on cgroup v1 the same soft "
                     "limit Podman writes)");
    addRefusedOption(*group, "--memory-swap",
                     "resized does not limit swap: memory plus swap stays as the container was created with; "
                     "--memory sets the memory limit");
}

}  // namespace

std::optional<std::string> ResourceRequest::rangeViolation() const
{
    const auto wordsFor = [this](const std::string& key) {
        const auto found = words.find(key);
        return found == words.end() ? key : found->second;
    };
    std::optional<std::string> why;
    std::string key;
    if (const auto millis = resources.cpuMillis; millis && *millis != core::kUnlimited) {
        key = "CpuMillis";
        if (*millis < core::kMinCpuMillis)
            why = "below the smallest CPU limit, 0.001 CPUs (1m); 'max' for none";
        else if (*millis > core::kMaxCpuMillis)
            why = "above the largest CPU limit, " + formatCpus(core::kMaxCpuMillis) + " CPUs";
    }
    if (!why && resources.memoryMax) {
        key = "MemoryMax";
        why = memoryRangeViolation(*resources.memoryMax, valueOf(wordsFor(key)));
    }
    if (!why && resources.memoryHigh) {
        key = "MemoryHigh";
        why = memoryRangeViolation(*resources.memoryHigh, valueOf(wordsFor(key)));
    }
    if (!why && resources.cpuWeight &&
        (*resources.cpuWeight < core::kMinCpuWeight || *resources.cpuWeight > core::kMaxCpuWeight)) {
        key = "CpuWeight";
        why = "outside 1..10000 (100 is the default weight)";
    }
    if (!why && resources.exclusiveCpus && *resources.exclusiveCpus > core::kMaxExclusiveCpus) {
        key = "ExclusiveCpus";
        why = "more than " + std::to_string(core::kMaxExclusiveCpus) + " CPUs";
    }
    if (!why)
        return std::nullopt;
    return wordsFor(key) + ": " + *why;
}

std::string ResourceRequest::attributed(const std::string& message) const
{
    // The daemon's messages name a resource as "memory" or "CPU".
    const bool aboutMemory = message.find("memory") != std::string::npos;
    const bool aboutCpu = message.find("CPU") != std::string::npos;
    if (aboutMemory == aboutCpu)
        return message;
    const auto keys = aboutMemory ? std::array{"MemoryMax", "MemoryHigh"} : std::array{"CpuMillis", "ExclusiveCpus"};
    for (const auto& key : keys)
        if (const auto found = words.find(key); found != words.end())
            return found->second + ": " + message;
    return message;
}

ResourceRequest ResourceArguments::resolve() const
{
    ResourceRequest request{fromOptions, optionWords, {}};
    core::Resources& resources = request.resources;
    if (cpuPeriod && !cpuQuota)
        throw CLI::ValidationError("--cpu-period", "a period alone changes no limit: resized keeps the CPU limit as "
                                                   "a rate; give --cpu-quota with it, or --cpus");
    if (cpuQuota) {
        if (resources.cpuMillis)
            throw CLI::ValidationError("--cpu-quota", "sets the CPU limit that --cpus already sets");
        const uint64_t period = cpuPeriod.value_or(kPodmanCpuPeriod);
        resources.cpuMillis = millisOfQuota(*cpuQuota, period);
        request.words["CpuMillis"] = "--cpu-quota " + (*cpuQuota == core::kUnlimited ? std::string("-1")
                                                                                        : std::to_string(*cpuQuota)) +
                                     (cpuPeriod ? " --cpu-period " + std::to_string(period) : "");
    }
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
        recordWords(assigned, assignment, request.words);
    }
    if (resources.empty())
        throw CLI::ValidationError("name at least one resource: --cpus, --memory, --memory-high, --cpu-shares, "
                                   "--cpu-weight, --cpuset-cpus, --exclusive-cpus, or an assignment such as "
                                   "CPUQuota=150%");
    if (auto note = roundingNote(*this, request))
        request.notes.push_back(std::move(*note));
    return request;
}

void addResourceOptions(CLI::App& command, ResourceArguments& arguments)
{
    auto* group = command.add_option_group("Resources", "What to change; resources not named stay as they are");
    for (const auto& option : kResourceOptions) {
        // Messages about the value name the option by its first long name,
        // Podman's where there is one (--cpus for --cpu too): CLI11 does not
        // say which of the names was typed.
        const std::string names(option.names);
        const size_t longStart = names.find("--");
        const std::string longName = names.substr(longStart, names.find(',', longStart) - longStart);
        addReadOption(
            *group, names,
            [&arguments, read = option.read, longName](const std::string& text) {
                core::Resources parsed;
                if (!read(text, parsed))
                    return false;
                arguments.fromOptions = arguments.fromOptions.overlaidWith(parsed);
                recordWords(parsed, longName + " " + text, arguments.optionWords);
                return true;
            },
            std::string(option.what), std::string(option.help))
            ->type_name(std::string(option.typeName));
    }
    // Both are the CPU weight.
    group->get_option("--cpu-weight")->excludes(group->get_option("--cpu-shares"));
    // A slice is its own CPUs without a quota.
    group->get_option("--exclusive-cpus")->excludes(group->get_option("--cpus"));
    group->get_option("--exclusive-cpus")->excludes(group->get_option("--cpuset-cpus"));

    addPodmanOptions(command, arguments);

    command
        .add_option("assignments", arguments.assignments,
                    "Assignments, as systemctl set-property takes them: CPUQuota=150%, MemoryMax=1G, "
                    "MemoryHigh=, CPUWeight=, AllowedCPUs=0-1; or an option above without its dashes: "
                    "cpus=1.5, memory=1g")
        ->type_name("PROPERTY=VALUE");
}

}  // namespace resized::ctl
