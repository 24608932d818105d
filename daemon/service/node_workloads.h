#pragma once

#include <string>
#include <vector>

#include "cgroup/driver_selector.h"
#include "core/resources.h"
#include "core/states.h"
#include "core/workload_name.h"
#include "service/background_listing.h"
#include "service/workloads/change.h"
#include "store/state_store.h"

namespace resized::service {

// One container, pod or unit of the node as ListNodeWorkloads shows it
// (design.md §1c), managed by resized or not.
struct NodeWorkload {
    std::string name;  // canonical: containers bare, pods and units prefixed
    core::WorkloadKind kind = core::WorkloadKind::Container;
    bool managed = false;
    std::string pod;
    std::string pool;
    core::RunState runState = core::RunState::Unknown;
    // What its cgroup holds now; empty while it has none (stopped, removed).
    core::Resources actual;
};

// Every workload the daemon sees on the node: Podman's containers and pods
// as a listing finds them, and every workload resized keeps a record of (its
// units among them: resized does not list the units it does not manage).
// Clients ask this instead of Podman, whose socket they may not reach.
class NodeWorkloads {
public:
    NodeWorkloads(BackgroundListing& listing, store::StateStore& store, cgroup::DriverSelector& drivers);

    // Calls `done` from the loop, sorted by name; only the workloads
    // resized manages when Podman cannot be asked.
    void list(Answer<std::vector<NodeWorkload>> done);

private:
    std::vector<NodeWorkload> combine(const std::vector<Instance>& listed);
    // What the cgroup holds now; empty when it cannot be read (gone
    // since it was listed).
    core::Resources readNow(const std::string& cgroupPath);

    BackgroundListing& listing_;
    store::StateStore& store_;
    cgroup::DriverSelector& drivers_;
};

}  // namespace resized::service
