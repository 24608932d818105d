#include "service/recovery.h"

#include <spdlog/spdlog.h>

#include <functional>
#include <map>
#include <optional>
#include <vector>

#include "cgroup/applier.h"
#include "core/admission.h"
#include "core/drift.h"
#include "service/reconciler.h"
#include "service/record_transitions.h"
#include "store/plan_store.h"

namespace resized::service {
void restoreLimits(cgroup::LimitsBackend& backend, const std::string& cgroupPath, const core::Resources& limits)
{
    if (limits.empty())
        return;
    cgroup::ApplyOptions options;
    options.force = true;
    cgroup::ApplyTransaction transaction(backend, cgroupPath, limits, options);
    while (transaction.advance()) {
    }
    if (transaction.outcome() != cgroup::ApplyOutcome::Applied)
        spdlog::warn("{}: cannot restore {}: {}", cgroupPath, core::describe(limits), transaction.message());
}

namespace {

// A reservation's workload as found after the interruption: its record and
// what its cgroup holds (nothing when either is gone).
struct Interrupted {
    store::Reservation reservation;
    std::optional<store::WorkloadRecord> record;
    std::optional<core::Resources> actual;

    bool landed(cgroup::DriverSelector& drivers) const
    {
        return record && actual &&
               core::matches(cgroup::asBackendReads(drivers.forCgroup(record->cgroupPath), record->cgroupPath,
                                                    reservation.target),
                             *actual);
    }
};

Interrupted inspect(store::StateStore& store, cgroup::DriverSelector& drivers, const store::Reservation& reservation)
{
    Interrupted found{reservation, store.find(reservation.workload), std::nullopt};
    if (found.record && !found.record->cgroupPath.empty()) {
        try {
            found.actual = drivers.forCgroup(found.record->cgroupPath).read(found.record->cgroupPath);
        } catch (const cgroup::CgroupError& error) {
            spdlog::info("{}: its cgroup is gone: {}", reservation.workload, error.what());
        }
    }
    return found;
}

// Finishes the change (`finish`) or undoes it in the cgroup, and returns
// the record to commit, if the workload still has one.
std::optional<store::WorkloadRecord> settle(cgroup::DriverSelector& drivers, Interrupted found, bool finish)
{
    auto& record = found.record;
    const store::Reservation& reservation = found.reservation;
    if (record && found.actual) {
        auto& backend = drivers.forCgroup(record->cgroupPath);
        if (finish) {
            // Keys the update only touched on its way (memory.high during a
            // shrink) go back to what they were.
            restoreLimits(backend, record->cgroupPath, reservation.previousActual.without(reservation.target));
            record->actuated = record->actuated.overlaidWith(reservation.target);
            record->holdsAllocation = true;
            record->updateState = core::UpdateState::Success;
            record->message = "completed after a restart of resized";
        } else {
            restoreLimits(backend, record->cgroupPath, reservation.previousActual);
            record->desired = reservation.previousDesired;
            record->updateState = core::UpdateState::Failed;
            record->message = "interrupted by a restart of resized; previous limits restored";
        }
        transition::observed(*record, backend.read(record->cgroupPath));
        if (record->holdsAllocation)
            record->allocated = core::allocationOf(record->actual.overlaidWith(record->desired));
    } else if (record) {
        record->desired = reservation.previousDesired;
        record->updateState = core::UpdateState::Failed;
        record->message = "interrupted by a restart of resized while the workload was away";
    }
    if (record) {
        record->syncState = core::matches(record->actuated, record->actual) ? core::SyncState::Synchronized
                                                                            : core::SyncState::DriftDetected;
        record->observedGeneration = record->generation;
        record->updatedAtUsec = nowUsec();
    }
    return record;
}

// The changes of one interruption settled in the cgroups first, then
// committed in one transaction: a crash in between leaves every
// reservation, and the next start decides the same way.
void commitSettled(store::StateStore& store, cgroup::DriverSelector& drivers, const std::vector<Interrupted>& found,
                   bool finish, const std::function<void()>& alsoInTransaction)
{
    std::vector<std::optional<store::WorkloadRecord>> settled;
    for (const Interrupted& each : found)
        settled.push_back(settle(drivers, each, finish));
    store::WriteTransaction transaction(store.database());
    for (size_t index = 0; index < found.size(); ++index) {
        if (settled[index])
            store.save(*settled[index]);
        // Undone, the change disrupted nothing: no budget pays for it.
        if (!finish)
            store.removeDisruptionsOf(found[index].reservation.id);
        store.removeReservation(found[index].reservation.id);
    }
    alsoInTransaction();
    transaction.commit();
    for (size_t index = 0; index < found.size(); ++index)
        spdlog::info("{}: interrupted update resolved: {}", found[index].reservation.workload,
                     settled[index] ? settled[index]->message : "workload no longer known");
}

}  // namespace

void resolveReservation(store::StateStore& store, cgroup::DriverSelector& drivers,
                        const store::Reservation& reservation)
{
    Interrupted found = inspect(store, drivers, reservation);
    const bool finish = found.landed(drivers);
    commitSettled(store, drivers, {std::move(found)}, finish, [] {});
}

void resolvePlan(store::StateStore& store, cgroup::DriverSelector& drivers, int64_t planId,
                 const std::vector<store::Reservation>& reservations)
{
    std::vector<Interrupted> found;
    bool finish = true;
    for (const auto& reservation : reservations) {
        found.push_back(inspect(store, drivers, reservation));
        finish = finish && found.back().landed(drivers);
    }
    store::PlanStore plans(store.database());
    commitSettled(store, drivers, found, finish, [&] {
        auto plan = plans.find(planId);
        if (!plan)
            return;
        plan->state = finish ? core::PlanState::Succeeded : core::PlanState::Failed;
        plan->reason = finish ? core::PlanReason::None : core::PlanReason::Apply;
        plan->message = finish ? "completed after a restart of resized"
                               : "interrupted by a restart of resized; every change of the plan undone";
        plan->finishedAtUsec = nowUsec();
        plans.save(*plan);
    });
    spdlog::info("plan {}: {} after a restart", planId, finish ? "completed" : "undone");
}

void recoverInterruptedUpdates(store::StateStore& store, cgroup::DriverSelector& drivers)
{
    std::map<int64_t, std::vector<store::Reservation>> plans;
    for (const store::Reservation& reservation : store.reservations()) {
        if (reservation.planId != 0)
            plans[reservation.planId].push_back(reservation);
        else
            resolveReservation(store, drivers, reservation);
    }
    for (const auto& [planId, reservations] : plans)
        resolvePlan(store, drivers, planId, reservations);
    // A plan whose every reservation went with its workloads (a database
    // written by an older resized, whose Forget did not wait for the plan)
    // has nothing left to finish or undo: it ended with the crash.
    store::PlanStore planStore(store.database());
    for (auto plan : planStore.plans()) {
        if (plan.state != core::PlanState::Running || plans.contains(plan.id))
            continue;
        plan.state = core::PlanState::Failed;
        plan.reason = core::PlanReason::Apply;
        plan.message = "interrupted by a restart of resized; its workloads were forgotten meanwhile";
        plan.finishedAtUsec = nowUsec();
        planStore.save(plan);
        spdlog::info("plan {}: {}", plan.id, plan.message);
    }
}

}  // namespace resized::service
