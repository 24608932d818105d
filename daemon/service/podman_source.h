#pragma once

#include <map>
#include <string>

#include "runtime/pod.h"
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

// Podman's pods as workloads (`pod:NAME`): their own cgroup, the parent of
// their members' cgroups.
class PodmanPodSource : public WorkloadSource {
public:
    explicit PodmanPodSource(runtime::PodmanClient& podman) : podman_(podman) {}

    std::optional<Instance> find(const core::WorkloadName& name) override;
    std::vector<Instance> list() override;

private:
    runtime::PodmanClient& podman_;
};

Instance instanceOf(const runtime::Container& container);
Instance instanceOf(const runtime::Pod& pod);

}  // namespace resized::service
