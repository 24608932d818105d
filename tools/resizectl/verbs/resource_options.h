#pragma once

#include <CLI/CLI.hpp>

#include "core/resources.h"

namespace resized::ctl {

// --cpu, --memory, --memory-high, --cpu-weight and --cpus, parsed into
// `resources` as they are read; at least one must be given. A quantity
// resizectl cannot read is a usage error.
void addResourceOptions(CLI::App& command, core::Resources& resources);

}  // namespace resized::ctl
