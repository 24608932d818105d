#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

#include "core/resources.h"

namespace resized::ctl {

// What `set` and `validate` change, named by Podman's flags (--cpus,
// --memory, --cpu-shares, --cpuset-cpus), resizectl's precise ones
// (--memory-high, --cpu-weight) or assignments: systemd's (CPUQuota=150%)
// or those flags' long names without the dashes (cpus=1.5).
struct ResourceArguments {
    core::Resources fromOptions;
    std::vector<std::string> assignments;

    // Options and assignments together. Throws CLI::ValidationError for an
    // assignment resizectl cannot read, a resource named twice, or none.
    core::Resources resolve() const;
};

// The options, each parsed as it is read (an unreadable quantity is a usage
// error), and the PROPERTY=VALUE arguments after the workload.
void addResourceOptions(CLI::App& command, ResourceArguments& arguments);

// One assignment: KEY=VALUE with KEY a long resource option without its
// dashes (cpus=1.5, memory=1g, cpu-weight=200, cpuset-cpus=0-3), read as
// that option reads its value, or a systemd one (CPUQuota=150%, see
// parseSystemdAssignment). Throws AssignmentError.
core::Resources parseResourceAssignment(std::string_view assignment);

}  // namespace resized::ctl
