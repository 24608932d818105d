#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "core/resources.h"

namespace resized::ctl {

// What `set` and `validate` change, named by Podman's flags (--cpus,
// --memory, --cpu-shares, --cpuset-cpus), resizectl's precise ones
// (--memory-high, --cpu-weight) or systemd's assignments (CPUQuota=150%).
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

}  // namespace resized::ctl
