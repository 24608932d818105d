#include "service/ledger.h"

#include <algorithm>

namespace resized::service {

std::optional<uint64_t> allowedDisruptions(store::StateStore& store, const store::PoolRecord& pool,
                                           core::DisruptionReason reason, uint64_t nowUsec)
{
    if (pool.budgets.empty())
        return std::nullopt;
    return core::allowedDisruptions(pool.budgets, reason, store.poolMembers(pool.name).size(),
                                    [&](const core::DisruptionBudget& budget) {
                                        return store.countDisruptions(pool.name, budget, nowUsec);
                                    });
}

Ledger::Ledger(store::StateStore& store, core::Amounts capacity, core::CpuSet nodeCpus)
    : store_(store), capacity_(capacity), nodeCpus_(std::move(nodeCpus))
{
}

core::NodeBudget Ledger::budget()
{
    core::Amounts allocated = store_.allocatedTotal();
    for (const auto& [name, amounts] : unheld_)
        allocated = allocated + amounts;
    return {capacity_, allocated, store_.reservedTotal()};
}

core::NodeBudget Ledger::poolBudget(const store::PoolRecord& pool)
{
    return {pool.cap, store_.poolAllocated(pool.name), store_.poolReserved(pool.name)};
}

core::AdmissionDecision Ledger::assess(const AdmissionQuestion& question)
{
    if (question.allowedCpus && !question.allowedCpus->empty()) {
        const core::CpuSet& asked = *question.allowedCpus;
        core::AdmissionDecision refusal;
        refusal.verdict = core::Verdict::Infeasible;
        if (!core::isSubset(asked, nodeCpus_)) {
            refusal.reason = "asked CPUs " + core::formatCpuSet(asked) + ", this node has " +
                             core::formatCpuSet(nodeCpus_);
            return refusal;
        }
        if (question.parentCpus && !core::isSubset(asked, *question.parentCpus)) {
            refusal.reason = "asked CPUs " + core::formatCpuSet(asked) + ", the workload's parent cgroup allows " +
                             core::formatCpuSet(*question.parentCpus);
            return refusal;
        }
    }
    const core::AdmissionDecision decision = core::admit(budget(), question.held, question.wanted);
    if (decision.verdict != core::Verdict::Admitted || question.pool.empty())
        return decision;
    const auto pool = store_.findPool(question.pool);
    if (!pool)
        return decision;
    // A workload joining the pool holds what it holds until the change
    // lands, and what it asked after: the pool needs room for the larger.
    const core::Amounts current = question.countedInPool ? question.held : core::Amounts{};
    const core::Amounts target =
        question.countedInPool ? question.wanted
                               : core::Amounts{std::max(question.held.cpuMillis, question.wanted.cpuMillis),
                                               std::max(question.held.memory, question.wanted.memory)};
    const auto poolDecision = core::admit(poolBudget(*pool), current, target, core::BudgetLevel::pool(pool->name));
    if (poolDecision.verdict != core::Verdict::Admitted)
        return poolDecision;
    if (question.disruption &&
        allowedDisruptions(store_, *pool, question.reason, question.nowUsec).value_or(1) == 0) {
        core::AdmissionDecision refusal;
        refusal.verdict = core::Verdict::BudgetExhausted;
        refusal.reason = "pool " + pool->name + ": its disruption budgets allow no more " +
                         std::string(core::toString(question.reason)) + " disruptions now";
        return refusal;
    }
    return decision;
}

bool Ledger::countUnheld(const std::string& workload, const core::Amounts& amounts)
{
    auto [entry, added] = unheld_.try_emplace(workload, amounts);
    if (added)
        return true;
    if (entry->second == amounts)
        return false;
    entry->second = amounts;
    return true;
}

bool Ledger::dropUnheld(const std::string& workload) { return unheld_.erase(workload) > 0; }

bool Ledger::replaceUnheld(std::map<std::string, core::Amounts> unheld)
{
    const bool changed = unheld != unheld_;
    unheld_ = std::move(unheld);
    return changed;
}

std::optional<core::Amounts> Ledger::unheld(const std::string& workload) const
{
    const auto found = unheld_.find(workload);
    if (found == unheld_.end())
        return std::nullopt;
    return found->second;
}

}  // namespace resized::service
