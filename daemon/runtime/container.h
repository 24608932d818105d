#pragma once

#include <string>
#include <sys/types.h>

#include "core/resources.h"

namespace resized::runtime {

// What resized needs to know of one Podman container.
struct Container {
    std::string id;    // full 64-hex ID
    std::string name;  // without leading '/'
    std::string podId;   // empty when not in a pod
    std::string podName;
    bool running = false;
    pid_t pid = 0;     // 0 when not running
    // The cgroup relative to the cgroup root, as Podman reports it
    // (State.CgroupPath), e.g. "/libpod_parent/libpod-<id>" or
    // "/machine.slice/libpod-<id>.scope". Empty when not running.
    std::string cgroupPath;
    // Limits the container was created with (HostConfig); a key is missing
    // where it was created without that limit.
    core::Resources createLimits;
};

}  // namespace resized::runtime
