#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "core/cpu_slices.h"
#include "core/cpu_topology.h"
#include "core/cpuset.h"
#include "core/resources.h"

// The CPU manager's static policy (design.md §1b): who holds which exclusive
// slice, what is left shared, and what a request naming ExclusiveCpus
// becomes. Pure: the caller brings the slices its state holds.
namespace resized::core {

enum class CpuManagerPolicy { None, Static };

std::string_view toString(CpuManagerPolicy policy);
std::optional<CpuManagerPolicy> parseCpuManagerPolicy(std::string_view text);

struct CpuManagerSettings {
    CpuManagerPolicy policy = CpuManagerPolicy::None;
    // Kept out of every slice: they stay shared.
    CpuSet reserved{};
    SliceOptions slices{};
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

class CpuAssignment {
public:
    // `slices`: the slices held now, by workload.
    CpuAssignment(const CpuTopology& topology, CpuManagerSettings settings, std::map<std::string, Slice> slices);

    CpuManagerPolicy policy() const { return settings_.policy; }
    const CpuSet& reserved() const { return settings_.reserved; }
    const std::map<std::string, Slice>& slices() const { return slices_; }
    // The union of all slices.
    const CpuSet& exclusive() const { return exclusive_; }
    // Every online CPU outside the slices, the reserved ones included.
    CpuSet shared() const { return difference(topology_.cpus(), exclusive_); }

    // `request` for `workload`, whose desired state is `desired` (the slice
    // it holds, if any, is in slices()). `alsoTaken` are CPUs other changes
    // not yet recorded have taken (a plan's). Refused: ExclusiveCpus above 0
    // without the static policy, a slice the free CPUs cannot give or that
    // would leave the shared pool empty, CpuMillis or AllowedCpus for a
    // slice's holder, and AllowedCpus naming another workload's slice.
    SliceRequest expand(const std::string& workload, const Resources& request, const Resources& desired,
                        const CpuSet& alsoTaken = {}) const;

    // The cpuset of a workload without a slice: what it asked for (empty or
    // unset: all CPUs) less every slice, or the whole shared pool when
    // nothing of it is left; the empty set ("all") when the shared pool is
    // every CPU. nullopt without the static policy: cpusets are the caller's.
    std::optional<CpuSet> sharedCpusFor(const std::optional<CpuSet>& asked) const;

private:
    SliceRequest expandExclusive(const std::string& workload, const Resources& request, const Resources& desired,
                                 const CpuSet& alsoTaken) const;
    // The holder of the first slice holding one of `cpus`.
    std::optional<std::string> holderOf(const CpuSet& cpus) const;

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
