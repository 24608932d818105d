#include "service/recovery.h"

#include <spdlog/spdlog.h>

#include "cgroup/applier.h"
#include "core/admission.h"
#include "core/drift.h"
#include "service/reconciler.h"

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

void resolveReservation(store::StateStore& store, cgroup::DriverSelector& drivers,
                        const store::Reservation& reservation)
{
    auto record = store.find(reservation.workload);
    std::optional<core::Resources> actual;
    if (record && !record->cgroupPath.empty()) {
        try {
            actual = drivers.forCgroup(record->cgroupPath).read(record->cgroupPath);
        } catch (const cgroup::CgroupError& error) {
            spdlog::info("{}: its cgroup is gone: {}", reservation.workload, error.what());
        }
    }
    if (record && actual) {
        auto& backend = drivers.forCgroup(record->cgroupPath);
        if (core::matches(cgroup::asBackendReads(backend, record->cgroupPath, reservation.target), *actual)) {
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
        record->actual = backend.read(record->cgroupPath);
        if (record->holdsAllocation)
            record->allocated = core::allocationOf(record->actual.overlaidWith(record->desired));
    } else if (record) {
        record->desired = reservation.previousDesired;
        record->updateState = core::UpdateState::Failed;
        record->message = "interrupted by a restart of resized while the workload was away";
    }
    store::WriteTransaction transaction(store.database());
    if (record) {
        record->syncState = core::matches(record->actuated, record->actual) ? core::SyncState::Synchronized
                                                                            : core::SyncState::DriftDetected;
        record->observedGeneration = record->generation;
        record->updatedAtUsec = nowUsec();
        store.save(*record);
    }
    store.removeReservation(reservation.id);
    transaction.commit();
    spdlog::info("{}: interrupted update resolved: {}", reservation.workload,
                 record ? record->message : "workload no longer known");
}

void recoverInterruptedUpdates(store::StateStore& store, cgroup::DriverSelector& drivers)
{
    for (const store::Reservation& reservation : store.reservations())
        resolveReservation(store, drivers, reservation);
}

}  // namespace resized::service
