// ResourceManager's plans (design.md §1b): several changes validated again
// just before they run, admitted as one and applied all or nothing.

#include <spdlog/spdlog.h>

#include <algorithm>

#include "failpoint/failpoint.h"
#include "service/record_transitions.h"
#include "service/resource_manager.h"

namespace resized::service {
namespace {

using core::PlanReason;
using core::PlanState;

PlanOutcome rejected(PlanReason reason, std::string message)
{
    return {PlanState::Rejected, reason, std::move(message)};
}

// A plan refused by admission: rejected, or offered again later when it
// may wait (Defer) for what frees with time.
PlanOutcome refusalOf(const store::PlanRecord& plan, const core::AdmissionDecision& decision)
{
    switch (decision.verdict) {
    case core::Verdict::Infeasible:
        return rejected(PlanReason::Infeasible, decision.reason);
    case core::Verdict::BudgetExhausted:
        return plan.defer ? PlanOutcome{PlanState::Pending, PlanReason::Budget, decision.reason}
                          : rejected(PlanReason::Budget, decision.reason);
    case core::Verdict::Insufficient:
    case core::Verdict::Admitted:
        break;
    }
    return plan.defer ? PlanOutcome{PlanState::Pending, PlanReason::Capacity, decision.reason}
                      : rejected(PlanReason::Capacity, decision.reason);
}

// A decrease in every resource it counts: run before the others, so that
// what it frees is there when the increases come.
bool lowersOnly(const AdmissionQuestion& question)
{
    return question.wanted.cpuMillis <= question.held.cpuMillis && question.wanted.memory <= question.held.memory;
}

std::string describePlan(const store::PlanRecord& plan)
{
    std::string text;
    for (const auto& change : plan.changes)
        text += (text.empty() ? "" : "; ") + change.workload + ": " + core::describe(change.resources);
    return text;
}

}  // namespace

void ResourceManager::resolveAll(std::vector<std::string> names, std::vector<Target> found,
                                 Answer<std::vector<Target>> then)
{
    if (found.size() == names.size()) {
        then(std::move(found));
        return;
    }
    const std::string next = names[found.size()];
    resolve(next, [this, names = std::move(names), found = std::move(found),
                   then = std::move(then)](Outcome<Target> resolved) mutable {
        if (auto* error = std::get_if<ResizeError>(&resolved)) {
            then(std::move(*error));
            return;
        }
        found.push_back(std::get<Target>(std::move(resolved)));
        resolveAll(std::move(names), std::move(found), std::move(then));
    });
}

void ResourceManager::identify(const std::vector<std::string>& workloads, Answer<std::vector<PlanWorkload>> done)
{
    resolveAll(workloads, {}, [done = std::move(done)](Outcome<std::vector<Target>> resolved) {
        if (auto* error = std::get_if<ResizeError>(&resolved)) {
            done(std::move(*error));
            return;
        }
        std::vector<PlanWorkload> identified;
        for (const Target& target : std::get<std::vector<Target>>(resolved))
            identified.push_back({target.name, target.instance ? target.instance->id : std::string()});
        done(std::move(identified));
    });
}

void ResourceManager::runPlan(store::PlanRecord plan, PlanStarted onRunning, PlanCallback done)
{
    std::vector<std::string> names;
    for (const auto& change : plan.changes)
        names.push_back(change.workload);
    resolveAll(std::move(names), {},
               [this, plan = std::move(plan), onRunning = std::move(onRunning),
                done = std::move(done)](Outcome<std::vector<Target>> resolved) mutable {
                   try {
                       if (auto* error = std::get_if<ResizeError>(&resolved)) {
                           endPlan(plan, rejected(PlanReason::Churn, error->what()), done);
                           return;
                       }
                       startPlan(std::move(plan), std::get<std::vector<Target>>(std::move(resolved)), onRunning,
                                 done);
                   } catch (const store::StoreError& error) {
                       done({PlanState::Failed, PlanReason::Apply,
                             std::string("the state database refused: ") + error.what()});
                   }
               });
}

std::optional<PlanOutcome> ResourceManager::churnOf(const store::PlanRecord& plan,
                                                    const std::vector<Target>& targets) const
{
    for (const Target& target : targets) {
        if (!target.hasCgroup())
            return rejected(PlanReason::Churn, target.name + " is not running");
        const auto submitted = plan.containers.find(target.name);
        if (submitted == plan.containers.end() || submitted->second != target.instance->id)
            return rejected(PlanReason::Churn, target.name + " is another container than when the plan was submitted");
        const auto expected = plan.expectedGenerations.find(target.name);
        const uint64_t generation = target.record ? target.record->generation : 0;
        if (expected != plan.expectedGenerations.end() && expected->second != generation)
            return rejected(PlanReason::Churn, target.name + " is at generation " + std::to_string(generation) +
                                                   ", the plan expected " + std::to_string(expected->second));
    }
    return std::nullopt;
}

void ResourceManager::endPlan(store::PlanRecord& plan, const PlanOutcome& outcome, const PlanCallback& done)
{
    if (outcome.state != PlanState::Pending) {
        plan.state = outcome.state;
        plan.reason = outcome.reason;
        plan.message = outcome.message;
        plan.finishedAtUsec = nowUsec();
        store::PlanStore(store_.database()).save(plan);
    }
    done(outcome);
}

void ResourceManager::startPlan(store::PlanRecord plan, std::vector<Target> targets, const PlanStarted& onRunning,
                                PlanCallback done)
{
    // The workloads' own changes first; the plan is offered again after.
    for (const Target& target : targets)
        if (busy(target.name)) {
            done({PlanState::Pending, PlanReason::None, target.name + " is being changed"});
            return;
        }
    if (auto churn = churnOf(plan, targets)) {
        endPlan(plan, *churn, done);
        return;
    }

    const Actor actor = Actor::caller(plan.callerUid);
    std::vector<Assessment> assessments;
    std::vector<AdmissionQuestion> questions;
    std::vector<store::WorkloadRecord> joined;
    // The slices the plan's earlier changes take.
    core::CpuSet sliced;
    for (size_t index = 0; index < targets.size(); ++index) {
        releaseIfCameBackElsewhere(targets[index]);
        const Target& target = targets[index];
        joined.push_back(transition::withMembership(
            target.record.value_or(store::WorkloadRecord{.name = target.name, .kind = target.parsed.kind}),
            target.instance, std::nullopt));
        try {
            assessments.push_back(assess(target, joined.back(), plan.changes[index].resources, actor, sliced));
        } catch (const cgroup::CgroupError& error) {
            endPlan(plan, rejected(PlanReason::Churn, target.name + ": cannot read its cgroup: " + error.what()),
                    done);
            return;
        }
        assessments.back().question.reason = plan.disruptionReason;
        // A bubble takes the cgroups inside its pod along (CpuManager::
        // changesFor), which a plan's one change per workload does not.
        if (target.parsed.kind == core::WorkloadKind::Pod && plan.changes[index].resources.exclusiveCpus &&
            !assessments.back().question.infeasible)
            assessments.back().question.infeasible =
                "CPU manager: a pod's bubble is changed alone (UpdateResources), not in a plan";
        if (assessments.back().desired.exclusiveCpus.value_or(0) > 0)
            sliced.merge(core::CpuSet(assessments.back().desired.allowedCpus.value_or(core::CpuSet{})));
        questions.push_back(assessments.back().question);
    }

    // A plan that may wait must not take room that freed during a pass of
    // the deferred queue from the pool whose turn it is; it waits for its own.
    if (plan.defer && !deferred_.offeringInTurn()) {
        done({PlanState::Pending, PlanReason::Capacity, "room freed while it was offered; offered again in turn"});
        return;
    }
    // Admitted and reserved in one transaction: nothing can overtake it.
    store::WriteTransaction transaction(store_.database());
    const PlanAdmission admission = ledger_.assessPlan(questions);
    if (admission.decision.verdict != core::Verdict::Admitted || plan.dryRun) {
        transaction.commit();
        endPlan(plan,
                admission.decision.verdict != core::Verdict::Admitted
                    ? refusalOf(plan, admission.decision)
                    : PlanOutcome{PlanState::Succeeded, PlanReason::None, "dry run: would apply " + describePlan(plan)},
                done);
        return;
    }

    const uint64_t started = nowUsec();
    std::vector<size_t> order(targets.size());
    for (size_t index = 0; index < order.size(); ++index)
        order[index] = index;
    // What lowers first, making room for what grows; a pod's members are
    // lowered before the pod and raised after it, so that the pod's cgroup
    // holds what its members ask of it all along.
    const auto stage = [&](size_t index) {
        const bool pod = questions[index].kind == core::WorkloadKind::Pod;
        return lowersOnly(questions[index]) ? (pod ? 1 : 0) : (pod ? 2 : 3);
    };
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return stage(a) < stage(b); });
    auto set = std::make_unique<ChangeSet>();
    for (const size_t index : order) {
        const Target& target = targets[index];
        set->items.push_back(reserve(target, target.record.value_or(store::WorkloadRecord{}), joined[index],
                                     assessments[index], admission.reservations[index], plan.id, started));
    }
    plan.state = PlanState::Running;
    store::PlanStore(store_.database()).save(plan);
    transaction.commit();
    invariants_.check("a plan's admission");
    failpoint("plan-after-reserve");
    spdlog::info("plan {}: applying {}", plan.id, describePlan(plan));
    for (const WorkloadChange& item : set->items)
        announcer_.changed(item.record);
    onRunning(plan);

    set->actor = Actor::plan(plan.id, plan.callerUid);
    set->startedAtUsec = plan.submittedAtUsec;
    set->plan = std::move(plan);
    set->planDone = std::move(done);
    cgroup::ApplyOptions options;
    options.reclaimTimeout = settings_.defaultReclaimTimeout;
    options.force = set->plan->force;
    beginChangeSet(std::move(set), options);
}

}  // namespace resized::service
