#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/admission.h"
#include "store/state_store.h"

namespace resized::service {

// One disruption budget as a caller or a configuration file writes it,
// before it is checked: the keys of design.md §1b, each maybe missing.
struct BudgetSpec {
    std::optional<std::string> value;
    std::optional<uint64_t> periodUsec;
    std::vector<std::string> reasons;
    std::optional<std::string> schedule;
    std::optional<uint64_t> durationUsec;
    std::optional<std::string> timeZone;
};

// The budget `spec` writes, checked once for both its sources. Throws
// ResizeError(InvalidArgument) saying what is wrong, in the D-Bus keys'
// names.
core::DisruptionBudget checkedBudget(const BudgetSpec& spec);

// What SetPool changes: the caps given (kUnlimited: none) and the budgets
// given (all of them at once); the others stay as they are, or uncapped and
// without budgets for a new pool.
struct PoolSpec {
    std::optional<uint64_t> cpuMillis;
    std::optional<uint64_t> memory;
    std::optional<std::vector<core::DisruptionBudget>> budgets;
};

// What the ledger counts in a pool: what its members hold, and the
// workloads counted at what their cgroups hold (containers resized does not
// manage that its label names), by name.
struct PoolUsage {
    core::Amounts allocated;
    std::vector<std::string> unheld;
};

// A pool as io.resized1.Pool shows it.
struct PoolStatus {
    store::PoolRecord pool;
    core::Amounts allocated;
    // Every workload counted in it, managed or not, by name.
    std::vector<std::string> members;
    // For reason `manual` now; nullopt when no budget applies.
    std::optional<uint64_t> allowedDisruptions;

    bool operator==(const PoolStatus&) const = default;
};

// The node's pools (design.md §1b): named caps on the sum of their members'
// allocations, kept in the store. Admission against them is the ledger's;
// this is their life: created, changed, removed, looked at.
class Pools {
public:
    // `changed` is called after every change of a pool: a cap raised or a
    // pool removed may let waiting updates in. `usageOf` is what the
    // ledger counts in a pool.
    Pools(store::StateStore& store, std::function<void()> changed,
          std::function<PoolUsage(const store::PoolRecord&)> usageOf);

    // Creates or changes the pool. Throws ResizeError(InvalidArgument) for a
    // name that cannot be one.
    // Both throw ResizeError(InvalidArgument) for a pool a configuration
    // file declares: it is read-only over D-Bus.
    void set(const std::string& name, const PoolSpec& spec);
    // Throws ResizeError(NoSuchPool).
    void remove(const std::string& name);
    // The pools the configuration files declare now, each with its file:
    // created or changed as they say, and the pools declared before whose
    // file is gone removed (their members keep their limits). A pool set
    // over D-Bus under a declared name becomes the declared one.
    void declare(const std::vector<store::PoolRecord>& declared);
    std::vector<store::PoolRecord> list();
    // Throws ResizeError(NoSuchPool).
    PoolStatus status(const std::string& name);

private:
    store::StateStore& store_;
    std::function<void()> changed_;
    std::function<PoolUsage(const store::PoolRecord&)> usageOf_;
};

}  // namespace resized::service
