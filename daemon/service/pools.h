#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/admission.h"
#include "store/state_store.h"

namespace resized::service {

// What SetPool changes: the caps given (kUnlimited: none) and the budgets
// given (all of them at once); the others stay as they are, or uncapped and
// without budgets for a new pool.
struct PoolSpec {
    std::optional<uint64_t> cpuMillis;
    std::optional<uint64_t> memory;
    std::optional<std::vector<core::DisruptionBudget>> budgets;
};

// A pool as io.resized1.Pool shows it.
struct PoolStatus {
    store::PoolRecord pool;
    core::Amounts allocated;
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
    // pool removed may let waiting updates in.
    Pools(store::StateStore& store, std::function<void()> changed);

    // Creates or changes the pool. Throws ResizeError(InvalidArgument) for a
    // name that cannot be one.
    void set(const std::string& name, const PoolSpec& spec);
    // Throws ResizeError(NoSuchPool).
    void remove(const std::string& name);
    std::vector<store::PoolRecord> list();
    // Throws ResizeError(NoSuchPool).
    PoolStatus status(const std::string& name);

private:
    store::StateStore& store_;
    std::function<void()> changed_;
};

}  // namespace resized::service
