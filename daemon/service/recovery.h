#pragma once

#include <vector>

#include "cgroup/driver_selector.h"
#include "store/state_store.h"

namespace resized::service {

// Writes `limits` back, forced: they were in force a moment ago, so nothing
// waits for reclaim. A failure is logged; the caller's next read shows it.
void restoreLimits(cgroup::LimitsBackend& backend, const std::string& cgroupPath, const core::Resources& limits);

// An update that did not finish (a crash, or a store that refused its
// outcome) left its reservation behind. If the workload's cgroup holds the
// target, the update is committed; otherwise the previous limits are
// written back and the previous desired state restored, so that the store
// and the cgroup files agree again. Only the cgroup recorded at admission is
// read: a runtime that cannot be reached now must not make a finished
// update look undone. Throws store::StoreError when the outcome cannot be
// committed; the reservation then stays for the next try.
void resolveReservation(store::StateStore& store, cgroup::DriverSelector& drivers,
                        const store::Reservation& reservation);

// The reservations a plan's interruption left: all of its changes are
// finished if every cgroup holds its target, else all are undone; the
// plan's row ends succeeded or failed in the same transaction.
void resolvePlan(store::StateStore& store, cgroup::DriverSelector& drivers, int64_t planId,
                 const std::vector<store::Reservation>& reservations);

// Every reservation in the store, at start-up before anything else runs.
void recoverInterruptedUpdates(store::StateStore& store, cgroup::DriverSelector& drivers);

}  // namespace resized::service
