#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "cgroup/driver_selector.h"
#include "core/cpu_assignment.h"
#include "core/cpu_topology.h"
#include "core/resources.h"
#include "service/executor.h"
#include "service/workload_source.h"
#include "service/workloads/change.h"
#include "store/state_store.h"

namespace resized::service {

// The CPU manager's pools as the Manager properties show them.
struct CpuPools {
    std::string policy;
    core::CpuSet shared;
    core::CpuSet reserved;
    core::CpuSet exclusive;  // the union of all exclusive slices

    bool operator==(const CpuPools&) const = default;
};

// The CPU manager (design.md §1b, `[CpuManager]`): its slices are the
// desired states of the workloads that hold them (store::heldSlices()), so
// that a slice is admitted, recorded, applied, repaired and recovered like
// any other limit. What it does itself: turning ExclusiveCpus into the
// keys it stands for (assignment().expand()), placing every other
// container on the shared pool (placed() for the workloads resized
// manages, placementOf() for the others), and showing the pools. As
// kubelet's, it decides and never writes: every write it asks for is part
// of a change set, made by the one path that writes cgroups.
class CpuManager {
public:
    CpuManager(store::StateStore& store, const core::CpuTopology& topology, core::CpuManagerSettings settings,
               cgroup::DriverSelector& drivers);
    ~CpuManager();

    core::CpuManagerPolicy policy() const { return settings_.policy; }
    // The node's CPUs as the store's slices divide them now (one query of
    // the store). Without the static policy nothing is exclusive, whatever
    // slices an earlier run under it left in the store for start-up to give
    // back: the shared pool is every CPU.
    core::CpuAssignment assignment() const;
    CpuPools pools() const;
    // Slices held now; pod_shared as the last pass over the containers
    // found them.
    core::AssignmentCounts assignmentCounts() const;
    // Whether a slice `workload` is given comes out of its pod's bubble
    // (kubelet's source "pod") rather than the node's CPUs ("node").
    bool slicesFromPodBubble(const std::string& workload) const;
    // `request` as the cgroups are to be given it, or the refusal
    // (core::CpuAssignment::expand); without the static policy, a request
    // naming no ExclusiveCpus is taken as it is, reading nothing.
    core::SliceRequest expand(const core::SliceHolder& holder, const core::Resources& request,
                              const core::Resources& desired, const core::CpuSet& alsoTaken) const;

    // `write`, the keys to be written to `holder` that will have `desired`
    // once written: a cpuset it names on its shared pool
    // (core::CpuAssignment::sharedCpusFor), unless `desired` holds a slice or
    // a bubble. `write` as it is under the policy "none", and for a pod
    // without a bubble: its cgroup runs nothing itself, and it must hold its
    // members' slices (cgroup v1 refuses a parent narrower than a child).
    core::Resources placed(const core::SliceHolder& holder, const core::Resources& desired,
                           core::Resources write) const;

    // The cgroup changes that give `record` `write` (as placed() made it):
    // `write` itself, and for a pod whose bubble is made, resized, repaired or given
    // back, every cgroup inside the pod's on the pod's shared pool as it
    // will be (a member with a slice or a cpuset of its own on it). A child
    // cgroup's cpuset must fit inside its parent's (cgroup v1), so they go
    // first when the pod's cpuset narrows and after it when it widens; the
    // executor makes it all or nothing.
    std::vector<CgroupChange> changesFor(const store::WorkloadRecord& record, const core::Resources& write);

    // The write that puts a container whose cpuset resized does not
    // decide (one it holds nothing for, or whose desired state names no
    // AllowedCpus) on the shared pool: its cgroup's cpuset less the slices,
    // when it holds a CPU of one; what a slice took is given back when the
    // slice goes (the store remembers it), or when the policy is no longer
    // static. None when it is where it belongs. It is the CPU manager's to
    // ask for, never to write: the caller writes it as a change set.
    std::optional<Placement> placementOf(const Instance& instance);
    // The same for every container of a pass (the runtime's listing), each
    // a placement of its own; what the store remembers of containers gone
    // is forgotten, and the listing is kept as the containers known — but
    // for those in `newerThanListing`, which an event after the listing
    // began has seen: the listing's view of them may be older than the
    // one known, or miss them altogether.
    std::vector<Placement> placementsOf(const std::vector<Instance>& listed,
                                        const std::set<std::string>& newerThanListing = {});
    // The placements of every container known (the last pass's and those
    // placed one by one since) but `except` and the members of `exceptPods`
    // (a pod's change takes its members along: changesFor()), with the
    // slices as the store holds them now: how a change of a slice moves
    // the others.
    std::vector<Placement> placementsOfKnown(const std::set<std::string>& except = {},
                                             const std::set<std::string>& exceptPods = {});
    // Just before `placement` is written: the store remembers the cpuset it
    // narrows, or forgets the one it gives back.
    void placing(const Placement& placement);

    // The store's slices under the static policy; none under another.
    std::map<std::string, core::Slice> slicesInForce() const;

private:
    // The cgroups inside pod `record`'s with `podWrite`, the pod's change,
    // to be written.
    std::vector<CgroupChange> podChildrenPlaced(const store::WorkloadRecord& record,
                                                const core::Resources& podWrite);
    // The pod holding a bubble whose cgroup holds `cgroupPath`: the OCI hook
    // knows a container by its cgroup only.
    std::string bubbleHolding(const std::string& cgroupPath, const core::CpuAssignment& now) const;
    // Whether any container may need a placement: a pass over them all
    // is skipped when none can.
    bool placesAny() const;
    // placementOf() with the slices as `now` has them.
    std::optional<Placement> placementOf(const Instance& instance, const core::CpuAssignment& now) const;

    store::StateStore& store_;
    const core::CpuTopology& topology_;
    core::CpuManagerSettings settings_;
    cgroup::DriverSelector& drivers_;
    // Containers on their pod's shared pool at the last pass.
    size_t onPodSharedPools_ = 0;
    // The containers with a cgroup as the last pass listed them, and those
    // placed one by one since (also while that pass's listing was under
    // way), by canonical name.
    std::map<std::string, Instance> known_;
};

}  // namespace resized::service
