#pragma once

#include <sys/types.h>

#include <optional>
#include <string>
#include <string_view>

namespace resized::cgroup {

// The cgroup of a process as a runtime reports it ("/a/b"), from the text
// of /proc/PID/cgroup: the memory controller's hierarchy under cgroup v1
// (the one whose path every v1 backend writes through), the unified one
// (`0::`) otherwise. nullopt when neither is there.
std::optional<std::string> cgroupFromProcFile(std::string_view procCgroup);

// The same for a live process; throws CgroupError when it cannot be read
// (the process is gone).
std::string cgroupOfProcess(pid_t pid);

}  // namespace resized::cgroup
