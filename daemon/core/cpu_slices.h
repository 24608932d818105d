#pragma once

#include <optional>
#include <string>

#include "core/cpu_topology.h"
#include "core/cpuset.h"

// Which CPUs an exclusive slice (ExclusiveCpus, [CpuManager] Policy=static)
// gets, as kubelet's static policy packs them (takeByTopologyNUMAPacked),
// and how a slice is resized in place, which kubelet cannot do. The caller
// keeps reserved CPUs and other slices out of `free` and keeps the shared
// pool from becoming empty.
namespace resized::core {

// The CPUs chosen, or, when `cpus` is empty, why none could be: a sentence
// for the Infeasible error.
struct SliceChoice {
    std::optional<CpuSet> cpus;
    std::string refusal;
};

struct SliceOptions {
    // kubelet's full-pcpus-only: a slice is whole cores only, so no other
    // workload ever runs on a sibling thread of a slice's CPU.
    bool fullPhysicalCpusOnly = false;

    bool operator==(const SliceOptions&) const = default;
};

// An exclusive slice as it stands: its CPUs, and those it was first granted
// (a subset of them), which resizing never gives back.
struct Slice {
    CpuSet cpus;
    CpuSet granted;
    // The pod of the workload holding it, "" when none: a member's slice
    // comes from its pod's bubble when the pod holds one.
    std::string pod{};

    bool operator==(const Slice&) const = default;
};

// A new slice of `count` CPUs out of `free`: whole NUMA nodes or sockets
// while the count left is at least one (the larger of the two first), then
// whole cores, then single threads of the cores that have the fewest free
// threads, so that whole free cores stay whole. Within each step the
// fullest NUMA node, socket and core come first (packing), ties go to the
// lower ids. CPUs of `free` that are not online are not taken.
SliceChoice chooseSlice(const CpuTopology& topology, const CpuSet& free, unsigned count,
                        const SliceOptions& options = {});

// `slice` resized to `count` CPUs; its CPUs never move. Growing adds CPUs of
// `free` (which may hold the slice's own CPUs or not) closest to the slice:
// the other threads of its cores, then its NUMA nodes and sockets (the
// smaller of the two first), then packed as chooseSlice. Shrinking keeps a
// subset holding every granted CPU (fewer than granted is refused) and
// gives back first from the NUMA node or socket where the slice holds the
// fewest CPUs, a core's threads together, so what stays is compact and what
// goes is whole cores where it can be; ties give back the higher ids.
// Throws std::invalid_argument when `slice.granted` is not a subset of
// `slice.cpus`.
SliceChoice resizeSlice(const CpuTopology& topology, const Slice& slice, const CpuSet& free, unsigned count,
                        const SliceOptions& options = {});

}  // namespace resized::core
