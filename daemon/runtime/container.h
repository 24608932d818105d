#pragma once

#include <map>
#include <string>
#include <sys/types.h>

#include "core/resources.h"

namespace resized::runtime {

// A container's or pod's labels (`--label KEY=VALUE`).
using Labels = std::map<std::string, std::string>;

// What resized needs to know of one Podman container.
struct Container {
    std::string id;    // full 64-hex ID
    std::string name;  // without leading '/'
    std::string podId;   // empty when not in a pod
    std::string podName;
    // The container has a process and a live cgroup: it runs, or it is
    // paused (frozen, keeping its cgroup and its memory). Podman itself says
    // State.Running=false for a paused container; resized cares about the
    // cgroup, so a paused container is `running && paused` here.
    bool running = false;
    bool paused = false;  // only ever true together with `running`
    pid_t pid = 0;     // 0 when not running
    // The cgroup relative to the cgroup root, as Podman reports it
    // (State.CgroupPath), e.g. "/libpod_parent/libpod-<id>" or
    // "/machine.slice/libpod-<id>.scope". Empty when not running.
    std::string cgroupPath;
    Labels labels = {};  // Config.Labels
    // Limits the container was created with (HostConfig); a key is missing
    // where it was created without that limit.
    core::Resources createLimits;

    bool operator==(const Container&) const = default;
};

}  // namespace resized::runtime
