#include "service/ledger.h"

#include <algorithm>
#include <map>

#include "service/budget_windows.h"

namespace resized::service {

std::optional<uint64_t> allowedDisruptions(store::StateStore& store, const store::PoolRecord& pool,
                                           core::DisruptionReason reason, uint64_t nowUsec)
{
    const auto inForce = budgetsInForce(pool.budgets, nowUsec);
    if (inForce.empty())
        return std::nullopt;
    return core::allowedDisruptions(inForce, reason, store.poolMembers(pool.name).size(),
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
    for (const auto& [name, unheld] : unheld_)
        allocated = allocated + unheld.amounts;
    return {capacity_, allocated, store_.reservedTotal()};
}

core::NodeBudget Ledger::poolBudget(const store::PoolRecord& pool)
{
    core::Amounts allocated = store_.poolAllocated(pool.name);
    for (const auto& [name, unheld] : unheld_)
        if (unheld.pool == pool.name)
            allocated = allocated + unheld.amounts;
    return {pool.cap, allocated, store_.poolReserved(pool.name)};
}

std::optional<core::AdmissionDecision> Ledger::refuseCpus(const AdmissionQuestion& question) const
{
    if (!question.allowedCpus || question.allowedCpus->empty())
        return std::nullopt;
    const core::CpuSet& asked = *question.allowedCpus;
    core::AdmissionDecision refusal;
    refusal.verdict = core::Verdict::Infeasible;
    if (!core::isSubset(asked, nodeCpus_)) {
        refusal.reason = "asked CPUs " + core::formatCpuSet(asked) + ", this node has " + core::formatCpuSet(nodeCpus_);
        return refusal;
    }
    if (question.parentCpus && !core::isSubset(asked, *question.parentCpus)) {
        refusal.reason = "asked CPUs " + core::formatCpuSet(asked) + ", the workload's parent cgroup allows " +
                         core::formatCpuSet(*question.parentCpus);
        return refusal;
    }
    return std::nullopt;
}

core::AdmissionDecision Ledger::assessPool(const store::PoolRecord& pool,
                                           const std::vector<const AdmissionQuestion*>& questions)
{
    // A workload joining the pool holds what it holds until the change
    // lands, and what it asked after: the pool needs room for the larger.
    core::Amounts current;
    core::Amounts target;
    size_t disruptions = 0;
    for (const AdmissionQuestion* question : questions) {
        if (question->countedInPool) {
            current = current + question->held;
            target = target + question->wanted;
        } else {
            target = target + core::Amounts{std::max(question->held.cpuMillis, question->wanted.cpuMillis),
                                            std::max(question->held.memory, question->wanted.memory)};
        }
        disruptions += question->disruption ? 1 : 0;
    }
    const auto decision = core::admit(poolBudget(pool), current, target, core::BudgetLevel::pool(pool.name));
    if (decision.verdict != core::Verdict::Admitted || disruptions == 0)
        return decision;
    const AdmissionQuestion& first = *questions.front();
    const auto allowed = allowedDisruptions(store_, pool, first.reason, first.nowUsec);
    if (!allowed || *allowed >= disruptions)
        return decision;
    core::AdmissionDecision refusal;
    refusal.verdict = core::Verdict::BudgetExhausted;
    refusal.reason = "pool " + pool.name + ": its disruption budgets allow " +
                     (*allowed == 0 ? std::string("no more") : std::to_string(*allowed) + " more") + " " +
                     std::string(core::toString(first.reason)) + " disruptions now" +
                     (disruptions > 1 ? ", " + std::to_string(disruptions) + " asked" : "");
    return refusal;
}

core::AdmissionDecision Ledger::assess(const AdmissionQuestion& question)
{
    if (auto refusal = refuseCpus(question))
        return *refusal;
    const core::AdmissionDecision decision = core::admit(budget(), question.held, question.wanted);
    if (decision.verdict != core::Verdict::Admitted || question.pool.empty())
        return decision;
    const auto pool = store_.findPool(question.pool);
    if (!pool)
        return decision;
    const auto poolDecision = assessPool(*pool, {&question});
    return poolDecision.verdict == core::Verdict::Admitted ? decision : poolDecision;
}

PlanAdmission Ledger::assessPlan(const std::vector<AdmissionQuestion>& questions)
{
    PlanAdmission admission;
    core::AdmissionDecision& decision = admission.decision;
    core::Amounts held;
    core::Amounts wanted;
    std::map<std::string, std::vector<const AdmissionQuestion*>> byPool;
    for (const auto& question : questions) {
        auto alone = refuseCpus(question);
        if (!alone) {
            // Against the capacity alone: only a change larger than the
            // node is refused here.
            alone = core::admit({capacity_, {}, {}}, question.held, question.wanted);
            if (alone->verdict == core::Verdict::Admitted)
                alone.reset();
        }
        if (alone) {
            decision = *alone;
            decision.reason = question.workload + ": " + decision.reason;
            return admission;
        }
        held = held + question.held;
        wanted = wanted + question.wanted;
        byPool[question.pool].push_back(&question);
    }
    decision = core::admit(budget(), held, wanted);
    if (decision.verdict != core::Verdict::Admitted)
        return admission;
    for (const auto& [name, members] : byPool) {
        const auto pool = name.empty() ? std::nullopt : store_.findPool(name);
        if (!pool)
            continue;
        if (auto poolDecision = assessPool(*pool, members); poolDecision.verdict != core::Verdict::Admitted) {
            decision = std::move(poolDecision);
            return admission;
        }
    }

    // The decreases of each pool (and of the workloads in none) cover its
    // increases first.
    std::map<std::string, core::Amounts> credit;
    for (const auto& question : questions) {
        core::Amounts& covered = credit[question.pool];
        covered.cpuMillis += question.held.cpuMillis > question.wanted.cpuMillis
                                 ? question.held.cpuMillis - question.wanted.cpuMillis
                                 : 0;
        covered.memory +=
            question.held.memory > question.wanted.memory ? question.held.memory - question.wanted.memory : 0;
    }
    const auto takeFrom = [](uint64_t& available, uint64_t increase) {
        const uint64_t taken = std::min(available, increase);
        available -= taken;
        return increase - taken;
    };
    for (const auto& question : questions) {
        core::Amounts& covered = credit[question.pool];
        const uint64_t cpuIncrease =
            question.wanted.cpuMillis > question.held.cpuMillis ? question.wanted.cpuMillis - question.held.cpuMillis : 0;
        const uint64_t memoryIncrease =
            question.wanted.memory > question.held.memory ? question.wanted.memory - question.held.memory : 0;
        admission.reservations.push_back(
            {takeFrom(covered.cpuMillis, cpuIncrease), takeFrom(covered.memory, memoryIncrease)});
    }
    decision.reservation = {};
    return admission;
}

bool Ledger::countUnheld(const std::string& workload, const UnheldWorkload& unheld)
{
    auto [entry, added] = unheld_.try_emplace(workload, unheld);
    if (added)
        return true;
    if (entry->second == unheld)
        return false;
    entry->second = unheld;
    return true;
}

bool Ledger::dropUnheld(const std::string& workload) { return unheld_.erase(workload) > 0; }

bool Ledger::replaceUnheld(std::map<std::string, UnheldWorkload> unheld)
{
    const bool changed = unheld != unheld_;
    unheld_ = std::move(unheld);
    return changed;
}

std::optional<UnheldWorkload> Ledger::unheld(const std::string& workload) const
{
    const auto found = unheld_.find(workload);
    if (found == unheld_.end())
        return std::nullopt;
    return found->second;
}

}  // namespace resized::service
