// ResourceManager's one path to the cgroups (design.md §1c): an update, a
// plan and a repair are change sets, reserved, written, settled, committed
// and announced here alike.

#include <spdlog/spdlog.h>

#include <algorithm>

#include "failpoint/failpoint.h"
#include "service/known_container.h"
#include "service/record_transitions.h"
#include "service/recovery.h"
#include "service/resource_manager.h"

namespace resized::service {
namespace {

ErrorCode errorOf(cgroup::ApplyOutcome outcome)
{
    return outcome == cgroup::ApplyOutcome::MemoryInUse ? ErrorCode::MemoryInUse : ErrorCode::ApplyFailed;
}

std::string describeChanges(const ChangeSet& set)
{
    std::string text;
    for (const WorkloadChange& item : set.items)
        text += (text.empty() ? "" : "; ") + item.record.name + ": " + core::describe(item.request);
    return text;
}

// A plan's row as its change set ended.
void settlePlan(store::PlanRecord& plan, bool applied, const std::string& message, const std::string& changes,
             uint64_t now)
{
    plan.state = applied ? core::PlanState::Succeeded : core::PlanState::Failed;
    plan.reason = applied ? core::PlanReason::None : core::PlanReason::Apply;
    plan.message = applied ? "applied " + changes : message + "; every change of the plan undone";
    plan.finishedAtUsec = now;
}

bool touchesSlices(const ChangeSet& set)
{
    return std::any_of(set.items.begin(), set.items.end(),
                       [](const WorkloadChange& item) { return item.request.exclusiveCpus.has_value(); });
}

}  // namespace

WorkloadChange ResourceManager::reserve(const Target& target, const store::WorkloadRecord& before,
                                        store::WorkloadRecord joined, const Assessment& assessment,
                                        const core::Amounts& reservation, int64_t planId, uint64_t started)
{
    joined.kind = target.parsed.kind;
    transition::bind(joined, *target.instance);
    joined.desired = assessment.desired;
    if (!assessment.grantedCpus.empty())
        joined.exclusiveCpusGranted = assessment.grantedCpus;
    joined.driver = std::string(drivers_.forCgroup(joined.cgroupPath).driverName());
    joined.allocated = assessment.question.held;
    transition::applying(joined, started);
    store_.save(joined);
    store_.removeDeferred(joined.name);

    // The cpuset the CPU manager places the others on is its own to put
    // back, not the change's: only the keys asked for are restored.
    const core::Resources previousActual =
        assessment.baseline.restrictedTo(cgroup::keysTouchedBy(assessment.request));
    const int64_t reservationId = store_.addReservation({
        .workload = joined.name,
        .amounts = reservation,
        .target = assessment.request,
        .previousDesired = before.desired,
        .previousActual = previousActual,
        .createdAtUsec = started,
        .planId = planId,
    });
    auto disruption = recordDisruption(assessment.question, reservationId);
    return {.record = std::move(joined),
            .request = assessment.request,
            .previousDesired = before.desired,
            .previousPoolOption = before.poolOption,
            .previousPoolLabel = before.poolLabel,
            .targetAllocation = assessment.question.wanted,
            .previousActual = previousActual,
            .reservationId = reservationId,
            .disruption = std::move(disruption)};
}

void ResourceManager::beginChangeSet(std::unique_ptr<ChangeSet> set, const cgroup::ApplyOptions& options)
{
    const bool slicesChange = touchesSlices(*set);
    if (slicesChange)
        moveOthersWith(*set);
    std::vector<CgroupChange> writes;
    std::vector<CgroupChange> widening;
    for (const Placement& placement : set->placements) {
        cpuManager_.placing(placement);
        (placement.narrows ? writes : widening).push_back(placement.write);
    }
    for (WorkloadChange& item : set->items) {
        // What is written is what the record says was written (actuated).
        item.request = placed({item.record.name, item.record.kind, item.record.pod}, item.record.desired,
                              item.request);
        for (CgroupChange& write : cpuManager_.changesFor(item.record, item.request))
            writes.push_back(std::move(write));
    }
    writes.insert(writes.end(), std::make_move_iterator(widening.begin()), std::make_move_iterator(widening.end()));
    ChangeSet& begun = workloads_.begin(std::move(set));
    begun.execution = std::make_unique<Execution>(
        loop_, std::move(writes), options, [this, id = begun.id](Execution&) { finishChangeSet(id); },
        &peerCalls_);
    // Once begun, so that the set's own workloads are busy: no repair
    // takes them.
    if (slicesChange)
        repairOwnCpusetsAroundSlices();
    begun.execution->start();
}

// Admitted, a slice is kept free of the others (design.md §1c): they leave
// its CPUs before its holder is given them, in the same change set, and
// come back to the CPUs a slice gave back once it has left them. The slices
// as the store holds them now are the ones the set gives.
void ResourceManager::moveOthersWith(ChangeSet& set)
{
    if (cpuManager_.policy() != core::CpuManagerPolicy::Static)
        return;
    std::set<std::string> except;
    std::set<std::string> pods;
    for (const WorkloadChange& item : set.items) {
        except.insert(item.record.name);
        if (const auto name = core::parseWorkloadName(item.record.name); name && name->kind == core::WorkloadKind::Pod)
            pods.insert(name->name);
    }
    for (Placement& placement : cpuManager_.placementsOfKnown(except, pods))
        // One being changed is placed when its change ends.
        if (!busy(placement.workload))
            set.placements.push_back(std::move(placement));
    slicesPlaced_ = cpuManager_.slicesInForce();
}

void ResourceManager::placeOnSharedPool(const Instance& instance, std::function<void()> placed)
{
    std::optional<Placement> placement;
    if (!busy(instance.name.canonical()))
        placement = cpuManager_.placementOf(instance);
    if (placement)
        beginPlacement(std::move(*placement), std::move(placed));
    else if (placed)
        placed();
}

void ResourceManager::beginPlacement(Placement placement, std::function<void()> placed)
{
    auto set = std::make_unique<ChangeSet>();
    set->placements.push_back(std::move(placement));
    if (placed)
        set->placed.push_back(std::move(placed));
    set->actor = Actor::reconcile();
    set->startedAtUsec = nowUsec();
    beginChangeSet(std::move(set), {});
}

// Nothing to commit: the placements held what they held. A failed one is
// restored and placed again by the next pass.
void ResourceManager::finishPlacements(uint64_t id)
{
    const std::unique_ptr<ChangeSet> ended = workloads_.end(id);
    const Execution& execution = *ended->execution;
    if (execution.outcome() != cgroup::ApplyOutcome::Applied)
        for (const Placement& placement : ended->placements)
            spdlog::warn("{}: not placed on the shared pool: {}", placement.workload, execution.message());
    for (const auto& placed : ended->placed)
        placed();
    for (const Placement& placement : ended->placements)
        startNextQueued(placement.workload);
}

void ResourceManager::finishChangeSet(uint64_t id)
{
    ChangeSet& set = *workloads_.changeSet(id);
    if (set.placementsOnly()) {
        finishPlacements(id);
        return;
    }
    const Execution& execution = *set.execution;
    const bool applied = execution.outcome() == cgroup::ApplyOutcome::Applied;
    const uint64_t finished = nowUsec();
    for (WorkloadChange& item : set.items)
        // A repair holds the allocation the workload held already.
        settle(item, applied && item.reservationId, execution, finished);
    if (set.plan)
        settlePlan(*set.plan, applied, execution.message(), describeChanges(set), finished);
    failpoint("after-write");
    try {
        commitChangeSet(set, applied);
    } catch (const store::StoreError& error) {
        const std::string message =
            "the outcome could not be recorded (" + std::string(error.what()) + "); previous limits restored";
        for (const WorkloadChange& item : set.items) {
            spdlog::error("{}: {}", item.record.name, message);
            announcer_.failed(item.record.name, ErrorCode::ApplyFailed, message);
            hooks_.changeEnded(item.record.name, false, message);
        }
        if (auto answer = std::exchange(set.answer, {}))
            answer(ResizeError(ErrorCode::ApplyFailed, message));
        if (auto planDone = std::exchange(set.planDone, {}))
            planDone({core::PlanState::Failed, core::PlanReason::Apply, message});
        resolveAfterStoreError(id);
        return;
    }
    const std::unique_ptr<ChangeSet> ended = workloads_.end(id);
    announceEnd(*ended, applied);
    for (const WorkloadChange& item : ended->items) {
        // Busy, it was left where it was when the others were placed.
        if (const auto bound = boundContainer(item.record); bound && cpuManager_.policy() == core::CpuManagerPolicy::Static)
            placeOnSharedPool(*bound);
        startNextQueued(item.record.name);
    }
    for (const Placement& placement : ended->placements)
        startNextQueued(placement.workload);
}

// The record as the change left it, as the execution read it back where
// that is still what the cgroup holds, read again otherwise (or, where
// that fails, as the execution read it last): applied, it holds what was
// written and, when `holds`, the allocation admitted; otherwise it desires
// and belongs where it did before.
void ResourceManager::settle(WorkloadChange& change, bool holds, const Execution& execution, uint64_t now)
{
    store::WorkloadRecord& record = change.record;
    const bool applied = execution.outcome() == cgroup::ApplyOutcome::Applied;
    core::Resources actual;
    if (const core::Resources* holdsNow = execution.holdsNow(record.cgroupPath)) {
        actual = *holdsNow;
    } else {
        try {
            actual = readActual(record.cgroupPath);
        } catch (const cgroup::CgroupError&) {
            actual = record.actual.overlaidWith(execution.actualOf(record.cgroupPath));
        }
    }
    if (!applied) {
        transition::applyFailed(record, change.previousDesired, actual, execution.message(), now);
        record.poolOption = change.previousPoolOption;
        record.poolLabel = change.previousPoolLabel;
        return;
    }
    transition::applied(record, change.request, actual, now);
    if (holds) {
        record.allocated = change.targetAllocation;
        record.holdsAllocation = true;
        unheld_.drop(record.name);
        stopReleaseTimer(record.name);
    }
}

void ResourceManager::commitChangeSet(const ChangeSet& set, bool applied)
{
    store::WriteTransaction transaction(store_.database());
    for (const WorkloadChange& item : set.items) {
        store_.save(item.record);
        if (!item.reservationId)
            continue;
        // Undone, the change disrupted nothing: no budget pays for it.
        if (!applied)
            store_.removeDisruptionsOf(*item.reservationId);
        store_.removeReservation(*item.reservationId);
    }
    if (set.plan)
        store::PlanStore(store_.database()).save(*set.plan);
    failpoint(set.plan ? "plan-before-commit" : "before-commit");
    transaction.commit();
    invariants_.check(set.plan ? "a plan's outcome" : "a change's outcome");
    failpoint("after-commit");
}

void ResourceManager::announceEnd(ChangeSet& set, bool applied)
{
    const ErrorCode code = errorOf(set.execution->outcome());
    for (const WorkloadChange& item : set.items) {
        const store::WorkloadRecord& record = item.record;
        if (!set.repair())
            recordHistory(record.name, set.actor, "update", item.request, applied ? "success" : toString(code),
                          set.plan ? set.plan->message : record.message, set.startedAtUsec);
        announcer_.changed(record);
        if (applied) {
            spdlog::info("{}: applied, now {}", record.name, core::describe(record.actual));
            announcer_.applied(record.name, record.actual);
            if (item.disruption)
                announcer_.disrupted(*item.disruption);
        } else {
            spdlog::warn("{}: update failed: {}", record.name, record.message);
            announcer_.failed(record.name, code, record.message);
        }
    }
    // Either way capacity may have freed: a shrink, or a reservation given
    // back by a failed increase.
    deferred_.schedulePass();
    // The other containers were placed on the pool the slice was to leave.
    if (touchesSlices(set))
        slicesChanged();
    if (set.repair())
        reconciler_.repairFinished(set.items.front().record.name, applied);
    if (set.answer) {
        const store::WorkloadRecord& record = set.items.front().record;
        set.answer(applied ? UpdateResult(record) : UpdateResult(ResizeError(code, record.message)));
    }
    if (set.plan) {
        spdlog::info("plan {}: {}", set.plan->id, set.plan->message);
        set.planDone({set.plan->state, set.plan->reason, set.plan->message});
    }
    for (const WorkloadChange& item : set.items)
        hooks_.changeEnded(item.record.name, applied, item.record.message);
    // After the hook's answer: the container waits for that, not for this.
    if (set.repair()) {
        const WorkloadChange& item = set.items.front();
        recordHistory(item.record.name, set.actor, "repair", item.request, applied ? "success" : toString(code),
                      item.record.message, set.startedAtUsec);
    }
}

// The cgroups changed but the store could not say so: the set's
// reservations are resolved as a crash would have them resolved (the
// limits written are undone when the store still says otherwise), tried
// again until the store takes it. Its workloads' other callers wait till
// then.
void ResourceManager::resolveAfterStoreError(uint64_t id)
{
    ChangeSet& set = *workloads_.changeSet(id);
    if (!set.storeBackoff && set.execution->outcome() == cgroup::ApplyOutcome::Applied)
        for (const WorkloadChange& item : set.items)
            restoreLimits(drivers_.forCgroup(item.record.cgroupPath), item.record.cgroupPath, item.previousActual);
    try {
        if (set.plan) {
            resolvePlan(store_, drivers_, set.plan->id, store_.reservationsOfPlan(set.plan->id));
        } else if (set.repair()) {
            store_.save(set.items.front().record);
        } else {
            for (const auto& reservation : store_.reservations())
                if (reservation.id == set.items.front().reservationId)
                    resolveReservation(store_, drivers_, reservation);
        }
    } catch (const store::StoreError& error) {
        if (!set.storeBackoff)
            set.storeBackoff = retryBackoff(settings_.retryInterval, std::chrono::minutes(1));
        const auto delay = set.storeBackoff->next();
        spdlog::error("{}: the store still refuses ({}); trying again in {} ms", describeChanges(set), error.what(),
                      delay.count());
        set.storeRetry = loop_.after(delay, [this, id] { resolveAfterStoreError(id); });
        return;
    }
    const std::unique_ptr<ChangeSet> ended = workloads_.end(id);
    for (const WorkloadChange& item : ended->items) {
        if (auto record = store_.find(item.record.name))
            announcer_.changed(*record);
        startNextQueued(item.record.name);
    }
}

}  // namespace resized::service
