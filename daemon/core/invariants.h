#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/admission.h"
#include "core/cpu_slices.h"
#include "core/cpuset.h"

namespace resized::core {

// What resized has admitted, as the store holds it at one instant: the
// allocations held and the reservations of the changes in flight, at the
// node, in each pool and in each pod with a limit, and the exclusive
// slices. What the cgroups of unmanaged workloads hold is left out: it
// changes without asking, and admission only counts it.
struct AdmittedState {
    struct Level {
        std::string name;  // "" for the node
        Amounts capacity;  // kUnlimited where there is no cap
        Amounts allocated;
        Amounts reserved;
    };
    struct Pod {
        std::string name;  // the pod's workload name, "pod:NAME"
        Amounts limit;     // 0 where it has none
        // Its members' allocations, by workload name.
        std::map<std::string, Amounts> members;
    };
    Level node;
    std::vector<Level> pools;
    std::vector<Pod> pods;
    // By holder; a member's slice names its pod (Slice::pod).
    std::map<std::string, Slice> slices;
    // ReservedCpus: never in a slice.
    CpuSet reservedCpus;
};

// How far each level (by name, "" for the node) may hold more than its
// capacity without breaking a rule, carried from one check to the next. A
// capacity lowered below what is held takes nothing from the holders (a
// pool's cap, ReservedCPU= on reload; docs/dbus-api.md, SetPool): what they
// held when it was lowered, or first seen, is tolerated, never more, and
// less as they give it back.
struct Tolerance {
    Amounts capacity;
    Amounts allowed;
};
using Tolerances = std::map<std::string, Tolerance>;

// The rules of design.md §1c that hold at every instant, each broken one
// as a sentence naming what breaks it; empty when all hold:
// - allocations and reservations within the capacity of the node and of
//   every pool (or what `tolerances` allows above it), and every member's
//   within its pod's limit;
// - slices pairwise disjoint, but a member's inside its own pod's bubble;
// - no reserved CPU in a slice.
std::vector<std::string> brokenInvariants(const AdmittedState& state, Tolerances& tolerances);

}  // namespace resized::core
