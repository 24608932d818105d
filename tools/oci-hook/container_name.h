#pragma once

#include <sys/types.h>

#include <optional>
#include <string>
#include <vector>

namespace resized::hook {

// The OCI state names no container, and Podman, which knows the name, keeps
// the container locked until the hook has returned. conmon, the runtime's
// parent, is started with the name: `conmon ... -n NAME` (or --name).
std::optional<std::string> nameFromConmonArguments(const std::vector<std::string>& arguments);

// Looks for conmon among the first few ancestors of `process` (the hook's
// parent is the OCI runtime, whose parent is conmon) and returns the name it
// was given; nullopt under another runtime manager.
std::optional<std::string> containerNameFromAncestors(pid_t process);

}  // namespace resized::hook
