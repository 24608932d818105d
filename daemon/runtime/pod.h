#pragma once

#include <string>
#include <vector>

#include "core/resources.h"
#include "runtime/container.h"

namespace resized::runtime {

// Podman's pod states (libpod's define.PodState*).
enum class PodState {
    Created,   // no member has run yet
    Running,   // every member runs
    Degraded,  // some members run, some do not
    Paused,    // every member is paused
    Stopped,   // members were stopped
    Exited,    // members ended
    Error,
};

struct PodMember {
    std::string id;
    std::string name;

    bool operator==(const PodMember&) const = default;
};

// What resized needs to know of one Podman pod.
struct Pod {
    std::string id;  // full 64-hex ID
    std::string name;
    PodState state = PodState::Created;
    // The pod's own cgroup, the parent of its members' cgroups, relative to
    // the cgroup root as Podman reports it (CgroupPath), e.g.
    // "/libpod_parent/<pod id>" or "/machine.slice/machine-libpod_pod_<id>.slice".
    // Empty when the pod has none (created with --infra=false). Podman keeps
    // reporting it while the pod is stopped.
    std::string cgroupPath;
    std::string infraContainerId;  // empty when the pod has no infra container
    std::vector<PodMember> members;  // every container, the infra one included
    Labels labels;
    // Limits the pod was created with (`podman pod create --cpus --memory
    // --cpu-shares --cpuset-cpus`), as Podman reports them; a key is missing
    // where it has none. Podman 4.3.1 leaves out a --memory given without
    // --cpus although it writes it into the pod's cgroup: the cgroup is
    // what counts.
    core::Resources createLimits;

    bool operator==(const Pod&) const = default;
};

}  // namespace resized::runtime
