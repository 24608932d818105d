#pragma once

#include <cstdint>
#include <string>

#include "core/resources.h"

namespace resized::core {

// What the node holds, per resource (CPU in millicores, memory in bytes).
struct Amounts {
    uint64_t cpuMillis = 0;
    uint64_t memory = 0;

    bool operator==(const Amounts&) const = default;
};

// Saturating sum, so that a corrupt figure can never wrap to a small one.
Amounts operator+(const Amounts& a, const Amounts& b);
// Saturating difference, never below zero.
Amounts operator-(const Amounts& a, const Amounts& b);

struct NodeBudget {
    Amounts capacity;   // allocatable: total minus the configured system reserve
    Amounts allocated;  // admitted limits of every known running workload
    Amounts reserved;   // held by updates in flight

    // capacity − allocated − reserved, never below zero.
    Amounts available() const;
};

// The part of a limit set that admission counts: CpuMillis and MemoryMax,
// with "no limit" (and a missing key) counting as 0; an exclusive slice
// counts its CPUs (ExclusiveCpus × 1000 millicores) in place of CpuMillis.
Amounts allocationOf(const Resources& limits);

// BudgetExhausted: a pool's disruption budgets allow no more lowering now.
enum class Verdict { Admitted, Insufficient, Infeasible, BudgetExhausted };

// Which level of the hierarchy a budget is (design.md §1b: node, then pool),
// so that a refusal names the level that refused.
struct BudgetLevel {
    // "" for the node, "pool batch" for a pool.
    std::string name;

    static BudgetLevel node() { return {}; }
    static BudgetLevel pool(const std::string& pool) { return {"pool " + pool}; }
};

struct AdmissionDecision {
    Verdict verdict = Verdict::Admitted;
    // What must be reserved while the update is in flight (increases only).
    Amounts reservation;
    // For a person: what was asked and what is there.
    std::string reason;
};

// The admission rule of the D-Bus contract: raising a workload from a to b
// needs b − a ≤ available; decreases are always admitted; a request larger
// than the capacity alone is infeasible. `current` is what the workload holds
// now, `target` what it would hold after the change. A pool's budget is
// measured the same way, against its cap.
AdmissionDecision admit(const NodeBudget& budget, const Amounts& current, const Amounts& target,
                        const BudgetLevel& level = BudgetLevel::node());

}  // namespace resized::core
