#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

#include "core/resources.h"

namespace resized::ctl {

// What the command line asks for, with the user's own words for each
// resource, so that messages about a value name the flag and the units the
// user typed rather than the D-Bus key.
struct ResourceRequest {
    core::Resources resources;
    // D-Bus key ("CpuMillis") → what the user wrote: "--cpus 0", "MemoryMax=1M".
    std::map<std::string, std::string> words;
    // What resizectl changed in a value it accepted, said aloud: a CPU
    // quantity finer than a millicore, as Podman takes it, is rounded.
    std::vector<std::string> notes;

    // The first value outside the range the daemon accepts (design §1), in
    // the user's words: "--memory 1m: below the smallest memory limit, 4m";
    // nullopt when every value is in range.
    std::optional<std::string> rangeViolation() const;
    // A message of the daemon about this request, led by the words of the
    // resource it is about ("--memory 1g: asked ..."), with its sizes
    // readable; the message alone when it names none of them.
    std::string attributed(const std::string& message) const;
};

// What `set` and `validate` change, named by Podman's flags (--cpus,
// --memory, --cpu-shares, --cpuset-cpus, --cpu-quota with --cpu-period),
// resizectl's precise ones (--memory-high, --cpu-weight) or assignments:
// systemd's (CPUQuota=150%) or those flags' long names without the dashes
// (cpus=1.5).
struct ResourceArguments {
    core::Resources fromOptions;
    // D-Bus key → the option and its text, as ResourceRequest::words.
    std::map<std::string, std::string> optionWords;
    std::vector<std::string> assignments;
    // Podman's CPU limit as a quota per period, in microseconds.
    std::optional<uint64_t> cpuQuota;
    std::optional<uint64_t> cpuPeriod;

    // Options and assignments together. Throws CLI::ValidationError for an
    // assignment resizectl cannot read, a resource named twice, or none.
    ResourceRequest resolve() const;
};

// The options, each parsed as it is read (an unreadable quantity is a usage
// error), Podman's flags that have no meaning here (refused with the reason
// and the nearest equivalent), and the PROPERTY=VALUE arguments after the
// workload.
void addResourceOptions(CLI::App& command, ResourceArguments& arguments);

// One assignment: KEY=VALUE with KEY a long resource option without its
// dashes (cpus=1.5, memory=1g, cpu-weight=200, cpuset-cpus=0-3), read as
// that option reads its value, or a systemd one (CPUQuota=150%, see
// parseSystemdAssignment). Throws AssignmentError.
core::Resources parseResourceAssignment(std::string_view assignment);

}  // namespace resized::ctl
