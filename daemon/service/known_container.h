#pragma once

#include <string>

#include "core/states.h"
#include "service/workload_source.h"
#include "store/state_store.h"

namespace resized::service {

// The container `id` of a container workload as resized knows it without
// asking Podman: from the OCI hook, an event, or the record's own binding.
// Podman may hold the container locked (a restart runs the OCI hook under
// that lock), and asking it then would stall the loop until it lets go.
Instance knownContainer(const store::WorkloadRecord& record, const std::string& id, core::RunState state,
                        std::string cgroupPath = {});

// The running container the record is bound to; nullopt when it is not a
// container workload bound to a running one. A cgroup path names its
// container's ID, so a cgroup that is still there is still that container.
std::optional<Instance> boundContainer(const store::WorkloadRecord& record);

// Where a workload's instance comes from when no listing gives it.
enum class Lookup {
    AskSource,
    // The record's binding to a running container (boundContainer()), its
    // source asked only when there is none or it cannot be trusted now.
    TrustBinding,
};

}  // namespace resized::service
