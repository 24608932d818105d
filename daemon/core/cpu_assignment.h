#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "core/cpu_slices.h"
#include "core/cpu_topology.h"
#include "core/cpuset.h"
#include "core/resources.h"
#include "core/workload_name.h"

// The CPU manager's static policy (design.md §1b): who holds which exclusive
// slice, what is left shared, and what a request naming ExclusiveCpus
// becomes. Pure: the caller brings the slices its state holds.
namespace resized::core {

enum class CpuManagerPolicy { None, Static };

std::string_view toString(CpuManagerPolicy policy);
std::optional<CpuManagerPolicy> parseCpuManagerPolicy(std::string_view text);

// Where a pod's members take their slices from (kubelet's topology manager
// scope): the node (Container), or a bubble the pod holds (Pod).
enum class TopologyScope { Container, Pod };

std::string_view toString(TopologyScope scope);
std::optional<TopologyScope> parseTopologyScope(std::string_view text);

struct CpuManagerSettings {
    CpuManagerPolicy policy = CpuManagerPolicy::None;
    // Kept out of every slice: they stay shared.
    CpuSet reserved{};
    SliceOptions slices{};
    TopologyScope scope = TopologyScope::Container;

    bool operator==(const CpuManagerSettings&) const = default;
};

// Who asks for a slice, or is placed on a shared pool.
struct SliceHolder {
    SliceHolder(std::string workload, WorkloadKind kind = WorkloadKind::Container, std::string pod = {})
        : workload(std::move(workload)), kind(kind), pod(std::move(pod))
    {
    }

    std::string workload;  // canonical
    WorkloadKind kind;
    std::string pod;  // a container's pod, "" when none
};

// A request as the cgroups are to be given it, or why it cannot be.
struct SliceRequest {
    // ExclusiveCpus n > 0 as the slice (AllowedCpus) without a quota
    // (CpuMillis = no limit), its memory on the slice's NUMA nodes
    // (MemoryNodes); ExclusiveCpus 0 as the shared pool again (AllowedCpus
    // = all, placed by sharedCpusFor(); every node's memory); any other key
    // as asked.
    Resources request;
    // The CPUs the slice was first granted, which it keeps while it is
    // resized; empty when the request gives or resizes no slice.
    CpuSet granted;
    std::optional<std::string> refusal;
};

// Containers by how their CPUs are assigned, as kubelet's
// resource_manager_container_assignments counts them.
struct AssignmentCounts {
    size_t nodeExclusive = 0;  // a slice from the node
    size_t podExclusive = 0;   // a slice from their pod's bubble
    size_t podShared = 0;      // on their pod's shared pool

    bool operator==(const AssignmentCounts&) const = default;
};

// A pod's bubble (TopologyScope=pod) is the slice the pod holds; its
// members' slices are taken out of it, and its other containers run on the
// rest of it, the pod's shared pool. The node's shared pool is every CPU
// outside all slices, bubbles included.
class CpuAssignment {
public:
    // `slices`: the slices held now, by workload (canonical names; a
    // member's names its pod).
    CpuAssignment(const CpuTopology& topology, CpuManagerSettings settings, std::map<std::string, Slice> slices);

    CpuManagerPolicy policy() const { return settings_.policy; }
    const CpuSet& reserved() const { return settings_.reserved; }
    const std::map<std::string, Slice>& slices() const { return slices_; }
    // The union of all slices.
    const CpuSet& exclusive() const { return exclusive_; }
    // Every online CPU outside the slices, the reserved ones included.
    CpuSet shared() const { return difference(topology_.cpus(), exclusive_); }

    // `request` for `holder`, whose desired state is `desired` (the slice
    // it holds, if any, is in slices()). `alsoTaken` are CPUs other changes
    // not yet recorded have taken (a plan's). A container in a pod with a
    // bubble takes its slice from the bubble; a pod's slice is its bubble.
    // Refused: ExclusiveCpus above 0 without the static policy, for a
    // systemd unit, or for a pod without TopologyScope=pod; a slice the free
    // CPUs cannot give, or that would leave the node's or the pod's shared
    // pool empty; a bubble for a pod whose members hold slices from the
    // node, or given back while they hold slices from it; CpuMillis or
    // AllowedCpus for a slice's holder; AllowedCpus off the holder's pool.
    SliceRequest expand(const SliceHolder& holder, const Resources& request, const Resources& desired,
                        const CpuSet& alsoTaken = {}) const;

    // The cpuset of a workload without a slice: what it asked for (empty or
    // unset: all CPUs) on its shared pool — its pod's, when the pod holds a
    // bubble, else the node's — or the whole pool when nothing of it is
    // left there; the empty set ("all") when the pool is every CPU.
    // Without the static policy nothing is exclusive: what it asked for.
    CpuSet sharedCpusFor(const std::optional<CpuSet>& asked, const std::string& pod = {}) const;

    // The containers holding slices, node_exclusive or pod_exclusive.
    AssignmentCounts assignmentCounts() const;

    // The bubble of `pod` (a Podman pod's name), if it holds one.
    const Slice* bubbleOf(const std::string& pod) const;
    // The bubble of `pod` less its members' slices; empty without a bubble.
    CpuSet podShared(const std::string& pod) const;

private:
    // `kept`: CPUs of a slice resized that shrinking must keep, as if first
    // granted (a bubble's members' slices).
    SliceRequest expandExclusive(const SliceHolder& holder, const Resources& request, const Resources& desired,
                                 const CpuSet& alsoTaken, const CpuSet& kept = {}) const;
    SliceRequest expandBubble(const SliceHolder& holder, const Resources& request, const Resources& desired,
                              const CpuSet& alsoTaken) const;
    // The holder of the first slice holding one of `cpus`.
    std::optional<std::string> holderOf(const CpuSet& cpus) const;
    // The slices of `pod`'s members, by member, when it holds a bubble.
    std::map<std::string, Slice> memberSlices(const std::string& pod) const;
    // The CPUs of every slice but `holder`'s own and, when `holder` is a
    // pod, its members'.
    CpuSet takenByOthers(const SliceHolder& holder) const;

    const CpuTopology& topology_;
    CpuManagerSettings settings_;
    std::map<std::string, Slice> slices_;
    CpuSet exclusive_;
};

// A cgroup reading with ExclusiveCpus as `desired` makes it hold: the
// slice's count while the cgroup runs on exactly the slice, 0 otherwise;
// unset when `desired` names no ExclusiveCpus.
Resources withExclusiveCpusHeld(Resources actual, const Resources& desired);

}  // namespace resized::core
