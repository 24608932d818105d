#pragma once

#include <map>
#include <string>

#include "runtime/podman_client.h"
#include "service/workload_source.h"

namespace resized::service {

// Podman's containers as workloads.
class PodmanContainerSource : public WorkloadSource {
public:
    explicit PodmanContainerSource(runtime::PodmanClient& podman) : podman_(podman) {}

    std::optional<Instance> find(const core::WorkloadName& name) override;
    std::vector<Instance> list() override;

private:
    runtime::PodmanClient& podman_;
    // Running containers by ID and PID: a listing inspects only those it
    // has not seen run before, for their cgroup and create-time limits.
    std::map<std::pair<std::string, pid_t>, Instance> seen_;
};

// Whether `asked` names this container exactly: its name, its full ID, or a
// prefix of its ID of at least 12 hex digits (Podman's short ID).
bool namesContainerExactly(const std::string& asked, const runtime::Container& container);

Instance instanceOf(const runtime::Container& container);

}  // namespace resized::service
