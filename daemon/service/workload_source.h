#pragma once

#include <iterator>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/resources.h"
#include "core/states.h"
#include "core/workload_name.h"

namespace resized::service {

// One workload as its runtime sees it now.
struct Instance {
    core::WorkloadName name;
    std::string id;   // the container's or pod's ID; the unit's name
    std::string pod;  // the pod of a container, "" when none
    core::RunState state = core::RunState::Unknown;
    // Relative to the cgroup root; "" while it has none (stopped).
    std::string cgroupPath;
    // As created; the keys it was created without are missing.
    core::Resources createLimits;
    // The pool its io.resized1.pool label names, "" without one.
    std::string poolLabel;

    bool hasCgroup() const
    {
        return (state == core::RunState::Running || state == core::RunState::Paused) && !cgroupPath.empty();
    }
};

// The runtime behind a source could not be asked (Podman away, no systemd).
class SourceUnavailable : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// The name is not specific enough (a short ID of several containers).
class AmbiguousName : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Where workloads of one kind come from: Podman's containers and pods,
// systemd's units. Every call may throw SourceUnavailable.
class WorkloadSource {
public:
    virtual ~WorkloadSource() = default;

    // The workload of exactly this name: never another one whose ID merely
    // starts with it (design.md §1b). nullopt when there is none.
    virtual std::optional<Instance> find(const core::WorkloadName& name) = 0;

    // Every workload of this source, with or without a cgroup, from as few
    // requests as the runtime allows: a pass over all workloads asks once.
    virtual std::vector<Instance> list() = 0;
};

// The workloads of every source there is (null: none of that kind), in
// their order; throws what the first source that cannot be asked throws.
inline std::vector<Instance> listAll(const std::vector<WorkloadSource*>& sources)
{
    std::vector<Instance> instances;
    for (WorkloadSource* source : sources) {
        if (!source)
            continue;
        auto listed = source->list();
        instances.insert(instances.end(), std::make_move_iterator(listed.begin()),
                         std::make_move_iterator(listed.end()));
    }
    return instances;
}

// Why a workload of `kind` cannot be asked about: this node has no runtime
// for that kind (no systemd, say).
inline SourceUnavailable noSourceFor(core::WorkloadKind kind)
{
    return SourceUnavailable("this node has no runtime for workloads of kind " + std::string(core::toString(kind)));
}

class BackgroundListing;
class BackgroundLookup;

// One source per kind; a kind without a source on this node (no systemd)
// answers RuntimeUnavailable.
struct WorkloadSources {
    WorkloadSource* containers = nullptr;
    WorkloadSource* pods = nullptr;
    WorkloadSource* units = nullptr;
    // Lists the containers and pods for the periodic and event-driven
    // passes off the event loop (background_listing.h); without it they
    // list on the loop. Pods are listed for the budget: an unmanaged pod's
    // limit holds its members' (design.md §1b, pod budgets).
    BackgroundListing* podmanListing = nullptr;
    // Finds single workloads off the event loop (background_lookup.h);
    // without it they are found on the loop.
    BackgroundLookup* lookup = nullptr;

    WorkloadSource* forKind(core::WorkloadKind kind) const
    {
        switch (kind) {
        case core::WorkloadKind::Container:
            return containers;
        case core::WorkloadKind::Pod:
            return pods;
        case core::WorkloadKind::Unit:
            return units;
        }
        return nullptr;
    }
};

}  // namespace resized::service
