#include <spdlog/spdlog.h>

#include <thread>

#include "cgroup/applier.h"
#include "core/drift.h"
#include "service/resource_manager.h"

// Start-up recovery, discovery and reconciliation of ResourceManager: the
// parts that bring the store and the cgroup files back into agreement.
namespace resized::service {

void ResourceManager::start()
{
    recoverInterruptedUpdates();
    resynchronise();
    schedulePeriodicSync();
}

void ResourceManager::resynchronise()
{
    refreshUnmanaged();
    reconcile("");
    scheduleDeferredPass();
}

void ResourceManager::containerStarted(const std::string& name)
{
    if (store_.find(name)) {
        reconcileOne(name);
        return;
    }
    std::optional<runtime::Container> container;
    try {
        container = inspect(name);
    } catch (const ResizeError& error) {
        spdlog::warn("{}: started, but cannot be inspected: {}", name, error.what());
        return;
    }
    if (container && container->running) {
        unmanaged_[name] = core::allocationOf(container->createLimits);
        if (observer_)
            observer_->budgetChanged();
    }
}

void ResourceManager::containerCreated(const std::string& name)
{
    if (store_.find(name))
        reconcileOne(name);
}

void ResourceManager::containerStopped(const std::string& name)
{
    const bool wasUnmanaged = unmanaged_.erase(name) > 0;
    scheduleDeferredPass();
    auto record = store_.find(name);
    if (record && record->runState == core::RunState::Running && !inFlight_.contains(name)) {
        record->runState = core::RunState::Stopped;
        store_.save(*record);
        notifyChanged(*record);
    } else if (wasUnmanaged && observer_) {
        observer_->budgetChanged();
    }
}

// A frozen container keeps its cgroup, its memory and so its allocation.
void ResourceManager::containerPaused(const std::string&) {}

void ResourceManager::containerUnpaused(const std::string& name) { containerStarted(name); }

void ResourceManager::containerRemoved(const std::string& name) { containerStopped(name); }

void ResourceManager::containerRenamed(const std::string&, const std::string& newName)
{
    containerStarted(newName);
}

void ResourceManager::refreshUnmanaged()
{
    std::vector<runtime::Container> containers;
    try {
        containers = podman_.list();
        setRuntimeConnected(true);
    } catch (const runtime::RuntimeUnavailable& error) {
        spdlog::warn("cannot list containers: {}", error.what());
        setRuntimeConnected(false);
        return;
    }
    unmanaged_.clear();
    for (const auto& container : containers) {
        if (!container.running)
            continue;
        if (!store_.find(container.name))
            unmanaged_[container.name] = core::allocationOf(container.createLimits);
    }
    if (observer_)
        observer_->budgetChanged();
}

// An update a crash interrupted left its reservation behind. If the cgroup
// already holds the target, the update is committed; otherwise the previous
// limits are written back and the previous desired state restored, so that
// the store and the cgroup files agree before anything else runs.
void ResourceManager::recoverInterruptedUpdates()
{
    for (const store::Reservation& reservation : store_.reservations()) {
        auto record = store_.find(reservation.workload);
        std::optional<runtime::Container> container;
        try {
            container = podman_.inspect(reservation.workload);
        } catch (const std::exception& error) {
            spdlog::warn("{}: cannot inspect during recovery: {}", reservation.workload, error.what());
        }
        const bool running = container && container->running && !container->cgroupPath.empty();
        if (record && running) {
            const core::Resources actual = readActual(container->cgroupPath);
            if (core::matches(cgroup::asBackendReads(drivers_.forCgroup(container->cgroupPath), container->cgroupPath, reservation.target),
                              actual)) {
                // Keys the update only touched on its way (memory.high during a
                // shrink) go back to what they were.
                restoreBlocking(container->cgroupPath, reservation.previousActual.without(reservation.target));
                record->actuated = record->actuated.overlaidWith(reservation.target);
                record->allocated = core::allocationOf(container->createLimits.overlaidWith(record->desired));
                record->updateState = core::UpdateState::Success;
                record->message = "completed after a restart of resized";
            } else {
                restoreBlocking(container->cgroupPath, reservation.previousActual);
                record->desired = reservation.previousDesired;
                record->updateState = core::UpdateState::Failed;
                record->message = "interrupted by a restart of resized; previous limits restored";
            }
            record->actual = readActual(container->cgroupPath);
        } else if (record) {
            record->desired = reservation.previousDesired;
            record->updateState = core::UpdateState::Failed;
            record->message = "interrupted by a restart of resized while the container was away";
        }
        store::WriteTransaction transaction(store_.database());
        if (record) {
            record->syncState = core::matches(record->actuated, record->actual)
                                    ? core::SyncState::Synchronized
                                    : core::SyncState::DriftDetected;
            record->observedGeneration = record->generation;
            record->updatedAtUsec = nowUsec();
            store_.save(*record);
        }
        store_.removeReservation(reservation.id);
        transaction.commit();
        spdlog::info("{}: interrupted update resolved: {}", reservation.workload,
                     record ? record->message : "workload no longer known");
    }
}

// Only at start-up, before the bus name is taken: nothing waits on the loop.
void ResourceManager::restoreBlocking(const std::string& cgroupPath, const core::Resources& limits)
{
    if (limits.empty())
        return;
    cgroup::ApplyOptions options;
    options.force = true;
    cgroup::ApplyTransaction restore(drivers_.forCgroup(cgroupPath), cgroupPath, limits, options);
    while (auto delay = restore.advance())
        std::this_thread::sleep_for(*delay);
    if (restore.outcome() != cgroup::ApplyOutcome::Applied)
        spdlog::warn("{}: cannot restore {}: {}", cgroupPath, core::describe(limits), restore.message());
}

void ResourceManager::reconcile(const std::string& workload)
{
    if (!workload.empty()) {
        const Target target = resolve(workload);
        if (!target.record)
            throw ResizeError(ErrorCode::NoSuchWorkload, "resized does not manage \"" + workload + "\"");
        reconcileOne(target.name);
        return;
    }
    Listing listing;
    try {
        for (auto& entry : podman_.listSummaries())
            listing.emplace(entry.name, std::move(entry));
        setRuntimeConnected(true);
    } catch (const runtime::RuntimeUnavailable& error) {
        setRuntimeConnected(false);
        spdlog::warn("cannot reconcile: Podman cannot be reached: {}", error.what());
        return;
    }
    for (const auto& record : store_.workloads())
        reconcileOne(record.name, &listing);
}

// A store that cannot be written now (locked, full) must not lose the
// trigger: the workload is tried again with the retry policy.
void ResourceManager::reconcileOne(const std::string& name, const Listing* listing)
{
    try {
        reconcileOneNow(name, listing);
        storeRetries_.erase(name);
    } catch (const store::StoreError& error) {
        // Not the runtime's refusal but the store's passing trouble: tried
        // again, doubling up to a minute, for as long as it lasts.
        StoreRetry& retry = storeRetries_[name];
        const auto delay = std::min<std::chrono::milliseconds>(
            settings_.retryInterval * (1u << std::min(retry.failures++, 6u)), std::chrono::minutes(1));
        spdlog::error("{}: cannot reconcile: {}; trying again in {} ms", name, error.what(), delay.count());
        retry.timer = loop_.after(delay, [this, name] { reconcileOne(name); });
    }
}

// Re-binds the workload to its current container and repairs any drift
// between what was last written and what the cgroup holds.
// The workload's container, from the listing where that is enough: a
// container of the recorded ID that still runs keeps its cgroup. Anything
// else (no listing, a new container, a pending update, which needs the
// create-time limits) is inspected.
std::optional<runtime::Container> ResourceManager::containerOf(const store::WorkloadRecord& record,
                                                               const Listing* listing)
{
    if (!listing)
        return inspect(record.name);
    const auto listed = listing->find(record.name);
    if (listed == listing->end())
        return std::nullopt;
    const runtime::ListEntry& entry = listed->second;
    if (!entry.running || entry.id != record.containerId || record.cgroupPath.empty()
        || record.updateState == core::UpdateState::Pending)
        return inspect(record.name);
    return runtime::Container{
        .id = entry.id,
        .name = entry.name,
        .podId = entry.podId,
        .podName = entry.podName,
        .running = true,
        .pid = entry.pid,
        .cgroupPath = record.cgroupPath,
        .createLimits = {},
    };
}

void ResourceManager::reconcileOneNow(const std::string& name, const Listing* listing)
{
    if (inFlight_.contains(name))
        return;
    auto record = store_.find(name);
    if (!record)
        return;
    // A pass visits every workload; most are as they were, and writing and
    // announcing them anyway would cost a commit and a signal each.
    const store::WorkloadRecord stored = *record;
    const auto saveIfChanged = [&] {
        if (*record == stored)
            return;
        store_.save(*record);
        notifyChanged(*record);
    };
    std::optional<runtime::Container> container;
    try {
        container = containerOf(*record, listing);
    } catch (const ResizeError& error) {
        spdlog::warn("{}: cannot reconcile: {}", name, error.what());
        return;
    }
    const bool running = container && container->running && !container->cgroupPath.empty();
    record->runState = running ? core::RunState::Running : core::RunState::Stopped;
    if (container) {
        record->containerId = container->id;
        record->pod = container->podName;
    }
    if (!running) {
        saveIfChanged();
        return;
    }
    if (record->updateState == core::UpdateState::Pending) {
        // Asked while the container was not running, so never admitted:
        // it goes through admission now like any other update.
        Target target{name, container, record};
        startUpdate(std::move(target), Queued{record->desired, {}, 0, [name](const UpdateResult& result) {
                                                  if (auto* error = std::get_if<ResizeError>(&result))
                                                      spdlog::warn("{}: pending update not applied: {}", name,
                                                                   error->what());
                                              }});
        return;
    }
    record->cgroupPath = container->cgroupPath;
    record->driver = std::string(drivers_.forCgroup(record->cgroupPath).driverName());
    const core::Resources wanted = record->actuated.overlaidWith(record->desired);
    try {
        record->actual = readActual(record->cgroupPath);
    } catch (const cgroup::CgroupError& error) {
        spdlog::warn("{}: cannot read its cgroup: {}", name, error.what());
        return;
    }
    if (core::matches(cgroup::asBackendReads(drivers_.forCgroup(record->cgroupPath), record->cgroupPath, wanted), record->actual)) {
        record->syncState = core::SyncState::Synchronized;
        saveIfChanged();
        return;
    }

    spdlog::warn("{}: drift in {}: wanted {}, found {}", name,
                 fmt::join(core::driftedKeys(wanted, record->actual), ", "), core::describe(wanted),
                 core::describe(record->actual));
    record->syncState = core::SyncState::DriftDetected;
    store_.save(*record);
    notifyChanged(*record);
    if (observer_)
        observer_->driftDetected(name, record->desired, record->actual);

    cgroup::ApplyOptions options;
    options.reclaimTimeout = settings_.defaultReclaimTimeout;
    record->syncState = core::SyncState::Applying;
    const std::string cgroupPath = record->cgroupPath;
    const core::Resources previousDesired = record->desired;
    const core::Amounts allocation = record->allocated;
    inFlight_.emplace(name, std::make_unique<InFlight>(InFlight{
                                .record = std::move(*record),
                                .request = wanted,
                                .previousDesired = previousDesired,
                                .targetAllocation = allocation,
                                .reservationId = std::nullopt,
                                .apply = cgroup::ApplyTransaction(drivers_.forCgroup(cgroupPath), cgroupPath, wanted, options),
                                .done = {},
                                .callerUid = 0,
                                .startedAtUsec = nowUsec(),
                                .timer = {},
                            }));
    continueUpdate(name);
}

void ResourceManager::reload(const Settings& settings)
{
    if (settings.stateDir != settings_.stateDir || settings.podmanSocket != settings_.podmanSocket ||
        settings.cgroupRoot != settings_.cgroupRoot)
        spdlog::warn("changed paths take effect only when resized restarts");
    Settings kept = settings;
    kept.stateDir = settings_.stateDir;
    kept.podmanSocket = settings_.podmanSocket;
    kept.cgroupRoot = settings_.cgroupRoot;
    settings_ = std::move(kept);
    capacity_ = allocatable(node_, settings_.systemReserve);
    if (observer_)
        observer_->budgetChanged();
    schedulePeriodicSync();
    scheduleDeferredPass();
}

void ResourceManager::schedulePeriodicSync()
{
    syncTimer_ = loop_.after(settings_.syncInterval, [this] {
        resynchronise();
        schedulePeriodicSync();
    });
}

}  // namespace resized::service
