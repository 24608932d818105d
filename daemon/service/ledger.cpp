#include "service/ledger.h"

#include <algorithm>
#include <array>
#include <ctime>
#include <map>
#include <set>

#include "core/pod_budget.h"
#include "service/budget_clock.h"
#include "service/budget_windows.h"

namespace resized::service {
namespace {

// The pod a workload name names, if it is one (`pod:NAME`).
std::optional<std::string> podNamed(const std::string& workload)
{
    const auto name = core::parseWorkloadName(workload);
    if (!name || name->kind != core::WorkloadKind::Pod)
        return std::nullopt;
    return name->name;
}

// "2026-12-05 03:10:00 UTC"
std::string utcTime(uint64_t usecSinceEpoch)
{
    const std::time_t seconds = static_cast<std::time_t>(usecSinceEpoch / 1'000'000);
    std::tm utc{};
    gmtime_r(&seconds, &utc);
    std::array<char, 32> text{};
    std::strftime(text.data(), text.size(), "%Y-%m-%d %H:%M:%S UTC", &utc);
    return text.data();
}

}  // namespace

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

std::map<std::string, core::Amounts> Ledger::podLimits()
{
    auto limits = store_.heldPodLimits();
    // A pod resized holds nothing for limits its members with its cgroup's
    // limits all the same.
    for (const auto& [name, unheld] : unheld_)
        if (const auto pod = podNamed(name))
            limits.emplace(*pod, unheld.amounts);
    return limits;
}

core::Amounts Ledger::admittedIn(const std::string* pool)
{
    const auto inPool = [pool](const std::string& workloadPool) { return !pool || workloadPool == *pool; };
    const core::Amounts held = pool ? store_.poolAllocatedOutsideHeldPods(*pool) : store_.allocatedOutsideHeldPods();
    // The store counts the held members of the pods it holds nothing for
    // in full: what those pods' limits cover comes off.
    core::Amounts insideUnheldPods;
    for (const auto& [name, unheld] : unheld_) {
        const auto pod = podNamed(name);
        if (pod && unheld.amounts != core::Amounts{} && inPool(unheld.pool))
            for (const auto& member : store_.podMemberAllocations(*pod))
                if (inPool(member.pool))
                    insideUnheldPods = insideUnheldPods + core::insidePodLimit(member.amounts, unheld.amounts);
    }
    return held - insideUnheldPods;
}

core::Amounts Ledger::allocatedIn(const std::string* pool)
{
    const auto inPool = [pool](const std::string& workloadPool) { return !pool || workloadPool == *pool; };
    core::Amounts unheldOutsidePods;
    std::optional<std::map<std::string, core::Amounts>> limits;
    for (const auto& [name, unheld] : unheld_) {
        if (!inPool(unheld.pool))
            continue;
        if (unheld.pod.empty()) {
            unheldOutsidePods = unheldOutsidePods + unheld.amounts;
            continue;
        }
        if (!limits)
            limits = podLimits();
        const auto podLimit = limits->find(unheld.pod);
        const bool covered = podLimit != limits->end() && (!pool || poolOfPod(unheld.pod) == *pool);
        unheldOutsidePods = unheldOutsidePods +
                            (covered ? core::outsidePodLimit(unheld.amounts, podLimit->second) : unheld.amounts);
    }
    return admittedIn(pool) + unheldOutsidePods;
}

std::string Ledger::poolOfPod(const std::string& pod)
{
    const std::string name = "pod:" + pod;
    if (const auto record = store_.find(name); record && record->holdsAllocation)
        return record->pool();
    const auto unheld = unheld_.find(name);
    return unheld == unheld_.end() ? std::string() : unheld->second.pool;
}

const AdmissionQuestion& Ledger::countedInItsPool(const AdmissionQuestion& asked, const AdmissionQuestion& podLevel)
{
    const bool coveredByPod =
        asked.kind == core::WorkloadKind::Pod || asked.pod.empty() || poolOfPod(asked.pod) == asked.pool;
    return coveredByPod ? podLevel : asked;
}

core::NodeBudget Ledger::budget() { return {capacity_, allocatedIn(nullptr), store_.reservedTotal()}; }

core::NodeBudget Ledger::poolBudget(const store::PoolRecord& pool)
{
    return {pool.cap, allocatedIn(&pool.name), store_.poolReserved(pool.name)};
}

std::vector<core::PodMemberLimit> Ledger::podMemberLimits(const std::string& pod)
{
    std::vector<core::PodMemberLimit> members;
    std::set<std::string> counted;
    for (const auto& member : store_.podMemberAllocations(pod))
        if (counted.insert(member.workload).second)
            members.push_back({member.workload, member.amounts});
    for (const auto& [name, unheld] : unheld_)
        if (unheld.pod == pod && counted.insert(name).second)
            members.push_back({name, unheld.amounts});
    return members;
}

uint64_t Ledger::memberSlicesMillis(const std::string& pod, const std::string& except)
{
    uint64_t millis = 0;
    for (const auto& [workload, slice] : store_.heldSlices())
        if (slice.pod == pod && workload != except)
            millis += slice.cpus.size() * 1000;
    return millis;
}

std::optional<core::AdmissionDecision> Ledger::assessPodLevel(AdmissionQuestion& question,
                                                               const PlannedPods& planned)
{
    if (question.kind == core::WorkloadKind::Pod) {
        const std::string pod = podNamed(question.workload).value_or(question.workload);
        const auto plannedMembers = planned.members.find(pod);
        const auto plannedLimitOf = [&](const std::string& member) -> std::optional<core::Amounts> {
            if (plannedMembers == planned.members.end())
                return std::nullopt;
            const auto found = plannedMembers->second.find(member);
            return found == plannedMembers->second.end() ? std::nullopt : std::optional(found->second);
        };
        // Each member's limit now, and after the change (a plan may change
        // members of the pod along with it).
        std::vector<core::PodMemberLimit> now;
        std::vector<core::PodMemberLimit> after;
        const auto count = [&](const std::string& member, const core::Amounts& limit) {
            now.push_back({member, limit});
            after.push_back({member, plannedLimitOf(member).value_or(limit)});
        };
        std::set<std::string> counted;
        for (const auto& member : podMemberLimits(pod)) {
            counted.insert(member.name);
            count(member.name, member.limit);
        }
        if (plannedMembers != planned.members.end())
            for (const auto& [member, limit] : plannedMembers->second)
                if (!counted.contains(member))
                    after.push_back({member, limit});
        if (auto refusal = core::refuseOutsidePod(pod, question.wanted, after))
            return refusal;
        if (auto refusal = core::refuseSlicesOutsidePod(pod, question.wanted, memberSlicesMillis(pod, {})))
            return refusal;
        const auto sum = [](const std::vector<core::PodMemberLimit>& members) {
            core::Amounts total;
            for (const auto& member : members)
                total = total + member.limit;
            return total;
        };
        question.held = core::podGroupAllocation(question.held, sum(now));
        question.wanted = core::podGroupAllocation(question.wanted, sum(after));
        return std::nullopt;
    }
    if (question.pod.empty())
        return std::nullopt;
    const auto podAfter = planned.podLimits.find(question.pod);
    const bool podChangesToo = podAfter != planned.podLimits.end();
    std::optional<core::Amounts> podLimit;
    if (podChangesToo) {
        podLimit = podAfter->second;
    } else if (const auto limits = podLimits(); limits.contains(question.pod)) {
        podLimit = limits.at(question.pod);
    }
    if (!podLimit)
        return std::nullopt;
    if (auto refusal = core::refuseOutsidePod(question.pod, *podLimit, {{question.workload, question.wanted}}))
        return refusal;
    if (question.exclusiveCpus)
        if (auto refusal = core::refuseSlicesOutsidePod(
                question.pod, *podLimit,
                question.wanted.cpuMillis + memberSlicesMillis(question.pod, question.workload)))
            return refusal;
    // The pod's own change in the same plan counts this member, before and
    // after; otherwise it counts what its pod does not cover.
    question.held = podChangesToo ? core::Amounts{} : core::outsidePodLimit(question.held, *podLimit);
    question.wanted = podChangesToo ? core::Amounts{} : core::outsidePodLimit(question.wanted, *podLimit);
    return std::nullopt;
}

std::optional<core::AdmissionDecision> Ledger::refuseCpus(const AdmissionQuestion& question) const
{
    if (question.infeasible)
        return core::AdmissionDecision{core::Verdict::Infeasible, {}, *question.infeasible};
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
    // When waiting helps, and how long: the caller may defer the change.
    if (const auto allowedAt = disruptionsAllowedAtUsec(store_, pool, first.reason, disruptions, first.nowUsec))
        refusal.reason += "; they allow " + std::string(disruptions > 1 ? "them" : "the next") + " from " +
                          utcTime(*allowedAt);
    return refusal;
}

core::AdmissionDecision Ledger::assess(const AdmissionQuestion& asked)
{
    if (auto refusal = refuseCpus(asked))
        return *refusal;
    AdmissionQuestion question = asked;
    if (auto refusal = assessPodLevel(question, {}))
        return *refusal;
    const core::AdmissionDecision decision = core::admit(budget(), question.held, question.wanted);
    if (decision.verdict != core::Verdict::Admitted || question.pool.empty())
        return decision;
    const auto pool = store_.findPool(question.pool);
    if (!pool)
        return decision;
    const auto poolDecision = assessPool(*pool, {&countedInItsPool(asked, question)});
    return poolDecision.verdict == core::Verdict::Admitted ? decision : poolDecision;
}

PlanAdmission Ledger::assessPlan(const std::vector<AdmissionQuestion>& asked)
{
    PlanAdmission admission;
    core::AdmissionDecision& decision = admission.decision;
    core::Amounts held;
    core::Amounts wanted;
    std::vector<AdmissionQuestion> questions = asked;
    PlannedPods planned;
    for (const auto& question : questions)
        if (question.kind == core::WorkloadKind::Pod)
            planned.podLimits[podNamed(question.workload).value_or(question.workload)] = question.wanted;
    for (const auto& question : questions)
        if (planned.podLimits.contains(question.pod))
            planned.members[question.pod][question.workload] = question.wanted;
    std::map<std::string, std::vector<const AdmissionQuestion*>> byPool;
    for (size_t index = 0; index < questions.size(); ++index) {
        AdmissionQuestion& question = questions[index];
        auto alone = refuseCpus(question);
        if (!alone)
            alone = assessPodLevel(question, planned);
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
        byPool[question.pool].push_back(&countedInItsPool(asked[index], question));
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

std::vector<std::string> Ledger::unheldIn(const std::string& pool) const
{
    std::vector<std::string> names;
    for (const auto& [name, unheld] : unheld_)
        if (unheld.pool == pool)
            names.push_back(name);
    return names;
}

std::optional<UnheldWorkload> Ledger::unheld(const std::string& workload) const
{
    const auto found = unheld_.find(workload);
    if (found == unheld_.end())
        return std::nullopt;
    return found->second;
}

}  // namespace resized::service
