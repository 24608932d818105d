#include "service/resource_manager.h"

#include <spdlog/spdlog.h>
#include <time.h>

#include <algorithm>

#include "core/drift.h"
#include "core/quantity.h"
#include "failpoint/failpoint.h"
#include "store/json_resources.h"

namespace resized::service {

uint64_t nowUsec()
{
    timespec now{};
    clock_gettime(CLOCK_REALTIME, &now);
    return static_cast<uint64_t>(now.tv_sec) * 1'000'000 + static_cast<uint64_t>(now.tv_nsec) / 1000;
}

ResourceManager::ResourceManager(EventLoop& loop, Settings settings, NodeInfo node,
                                 store::StateStore& store, runtime::PodmanClient& podman,
                                 cgroup::DriverSelector& drivers)
    : loop_(loop),
      settings_(std::move(settings)),
      node_(std::move(node)),
      store_(store),
      podman_(podman),
      drivers_(drivers),
      capacity_(allocatable(node_, settings_.systemReserve))
{
}

ResourceManager::~ResourceManager() = default;

std::optional<runtime::Container> ResourceManager::inspect(const std::string& workload)
{
    try {
        auto container = podman_.inspect(workload);
        setRuntimeConnected(true);
        return container;
    } catch (const runtime::AmbiguousContainer& error) {
        throw ResizeError(ErrorCode::NoSuchWorkload,
                          "\"" + workload + "\" matches more than one container: " + error.what());
    } catch (const runtime::RuntimeUnavailable& error) {
        setRuntimeConnected(false);
        throw ResizeError(ErrorCode::RuntimeUnavailable,
                          std::string("Podman cannot be reached: ") + error.what());
    }
}

ResourceManager::Target ResourceManager::resolve(const std::string& workload)
{
    if (workload.empty())
        throw ResizeError(ErrorCode::InvalidArgument, "the workload name is empty");
    Target target;
    target.container = inspect(workload);
    target.name = target.container ? target.container->name : workload;
    target.record = store_.find(target.name);
    if (!target.container && !target.record)
        throw ResizeError(ErrorCode::NoSuchWorkload, "no container or known workload named \"" +
                                                         workload + "\"");
    return target;
}

core::NodeBudget ResourceManager::budget()
{
    return {capacity_, store_.allocatedTotal() + unmanagedAllocation(""), store_.reservedTotal()};
}

core::Amounts ResourceManager::unmanagedAllocation(const std::string& except)
{
    core::Amounts total;
    for (const auto& [name, amounts] : unmanaged_)
        if (name != except)
            total = total + amounts;
    return total;
}

core::Resources ResourceManager::readActual(const std::string& cgroupPath)
{
    return drivers_.forCgroup(cgroupPath).read(cgroupPath);
}

void ResourceManager::update(const std::string& workload, core::Resources request,
                             const UpdateOptions& options, uint32_t callerUid, UpdateCallback done)
{
    Target target = resolve(workload);
    Queued queued{std::move(request), options, callerUid, std::move(done)};
    if (inFlight_.contains(target.name)) {
        waiting_[target.name].push_back(std::move(queued));
        return;
    }
    startUpdate(std::move(target), std::move(queued));
}

void ResourceManager::startUpdate(Target target, Queued queued)
{
    const uint64_t started = nowUsec();
    const std::string& name = target.name;
    auto refuse = [&](ErrorCode code, const std::string& message) {
        spdlog::warn("{}: update refused: {}", name, message);
        recordHistory(name, queued.callerUid, "update", queued.request, dbusErrorName(code), message,
                      started);
        if (observer_)
            observer_->updateFailed(name, code, message);
        queued.done(ResizeError(code, message));
    };

    store::WorkloadRecord record = target.record.value_or(newRecord(name));
    const core::Resources previousDesired = record.desired;
    record.desired = record.desired.overlaidWith(queued.request);

    if (queued.request.allowedCpus && !queued.request.allowedCpus->empty()) {
        const auto asked = core::parseCpuSet(*queued.request.allowedCpus).value_or(core::CpuSet{});
        if (!core::isSubset(asked, node_.cpus)) {
            refuse(ErrorCode::Infeasible, "asked CPUs " + *queued.request.allowedCpus +
                                              ", this node has " + core::formatCpuSet(node_.cpus));
            return;
        }
        if (target.running() && !core::isSubset(asked, drivers_.forCgroup(target.container->cgroupPath).parentCpus(target.container->cgroupPath))) {
            refuse(ErrorCode::Infeasible,
                   "asked CPUs " + *queued.request.allowedCpus + ", the container's parent cgroup allows " +
                       core::formatCpuSet(drivers_.forCgroup(target.container->cgroupPath).parentCpus(target.container->cgroupPath)));
            return;
        }
    }

    if (!target.running()) {
        // Admission counts running workloads only; the desired state waits for
        // the container to start.
        if (queued.options.dryRun) {
            record.message = "dry run: the container is not running; the change would wait for it";
            queued.done(record);
            return;
        }
        if (target.container) {
            record.containerId = target.container->id;
            record.pod = target.container->podName;
        }
        record.runState = core::RunState::Stopped;
        record.generation++;
        record.syncState = core::SyncState::Pending;
        record.updateState = core::UpdateState::Pending;
        record.message = "the container is not running; the limits are applied when it starts";
        record.updatedAtUsec = started;
        store_.save(record);
        recordHistory(name, queued.callerUid, "update", queued.request, "pending", record.message,
                      started);
        notifyChanged(record);
        queued.done(record);
        return;
    }

    const runtime::Container& container = *target.container;
    const core::Amounts current = target.record ? record.allocated : core::allocationOf(container.createLimits);
    const core::Amounts wanted = core::allocationOf(container.createLimits.overlaidWith(record.desired));
    core::Resources previousActual;
    try {
        previousActual = readActual(container.cgroupPath);
    } catch (const cgroup::CgroupError& error) {
        refuse(ErrorCode::ApplyFailed, std::string("cannot read the container's cgroup: ") + error.what());
        return;
    }

    store::WriteTransaction transaction(store_.database());
    const core::NodeBudget node{capacity_, store_.allocatedTotal() + unmanagedAllocation(name),
                                store_.reservedTotal()};
    const core::AdmissionDecision decision = core::admit(node, current, wanted);
    if (decision.verdict == core::Verdict::Insufficient && queued.options.defer && !queued.options.dryRun) {
        deferUpdate(target, std::move(record), previousDesired, queued, decision.reason, started);
        transaction.commit();
        notifyChanged(*store_.find(name));
        queued.done(*store_.find(name));
        return;
    }
    if (decision.verdict != core::Verdict::Admitted) {
        transaction.commit();
        refuse(decision.verdict == core::Verdict::Infeasible ? ErrorCode::Infeasible
                                                             : ErrorCode::InsufficientResources,
               decision.reason);
        return;
    }
    if (queued.options.dryRun) {
        record.message = "dry run: the change would be admitted";
        record.actual = previousActual;
        queued.done(record);
        return;
    }

    record.containerId = container.id;
    record.pod = container.podName;
    record.cgroupPath = container.cgroupPath;
    record.driver = std::string(drivers_.forCgroup(record.cgroupPath).driverName());
    record.runState = core::RunState::Running;
    record.holdsAllocation = true;
    record.allocated = current;
    record.generation++;
    record.syncState = core::SyncState::Applying;
    record.updateState = core::UpdateState::Running;
    record.message.clear();
    record.updatedAtUsec = started;
    store_.save(record);
    store_.removeDeferred(name);
    const int64_t reservationId = store_.addReservation({
        .workload = name,
        .amounts = decision.reservation,
        .target = queued.request,
        .previousDesired = previousDesired,
        .previousActual = previousActual.restrictedTo(touchedBy(queued.request)),
        .createdAtUsec = started,
    });
    transaction.commit();
    failpoint("after-reserve");
    unmanaged_.erase(name);
    spdlog::info("{}: applying {} (generation {})", name, core::describe(queued.request),
                 record.generation);
    notifyChanged(record);

    cgroup::ApplyOptions applyOptions;
    applyOptions.force = queued.options.force;
    applyOptions.reclaimTimeout = queued.options.reclaimTimeout.value_or(settings_.defaultReclaimTimeout);
    const std::string cgroupPath = record.cgroupPath;
    inFlight_.emplace(name, std::make_unique<InFlight>(InFlight{
                                .record = std::move(record),
                                .request = queued.request,
                                .previousDesired = previousDesired,
                                .targetAllocation = wanted,
                                .reservationId = reservationId,
                                .apply = cgroup::ApplyTransaction(drivers_.forCgroup(cgroupPath), cgroupPath, queued.request,
                                                                  applyOptions),
                                .done = std::move(queued.done),
                                .callerUid = queued.callerUid,
                                .startedAtUsec = started,
                                .timer = {},
                            }));
    continueUpdate(name);
}

void ResourceManager::continueUpdate(const std::string& name)
{
    InFlight& update = *inFlight_.at(name);
    if (auto delay = update.apply.advance()) {
        update.timer = loop_.after(*delay, [this, name] { continueUpdate(name); });
        return;
    }
    finishUpdate(name);
}

void ResourceManager::finishUpdate(const std::string& name)
{
    auto node = inFlight_.extract(name);
    InFlight& update = *node.mapped();
    store::WorkloadRecord& record = update.record;
    const bool applied = update.apply.outcome() == cgroup::ApplyOutcome::Applied;
    try {
        record.actual = readActual(record.cgroupPath);
    } catch (const cgroup::CgroupError&) {
        record.actual = record.actual.overlaidWith(update.apply.actual());
    }
    if (applied) {
        record.actuated = record.actuated.overlaidWith(update.request);
        record.allocated = update.targetAllocation;
        record.syncState = core::SyncState::Synchronized;
        record.updateState = core::UpdateState::Success;
        record.message.clear();
    } else {
        record.desired = update.previousDesired;
        record.syncState = core::matches(record.actuated, record.actual) ? core::SyncState::Synchronized
                                                                        : core::SyncState::Failed;
        record.updateState = core::UpdateState::Failed;
        record.message = update.apply.message();
    }
    record.observedGeneration = record.generation;
    record.updatedAtUsec = nowUsec();
    failpoint("after-write");
    {
        store::WriteTransaction transaction(store_.database());
        store_.save(record);
        if (update.reservationId)
            store_.removeReservation(*update.reservationId);
        failpoint("before-commit");
        transaction.commit();
    }
    failpoint("after-commit");

    const ErrorCode code = update.apply.outcome() == cgroup::ApplyOutcome::MemoryInUse
                               ? ErrorCode::MemoryInUse
                               : ErrorCode::ApplyFailed;
    if (update.reservationId)
        recordHistory(name, update.callerUid, "update", update.request,
                      applied ? "success" : dbusErrorName(code), record.message, update.startedAtUsec);
    notifyChanged(record);
    if (applied)
        scheduleDeferredPass();
    if (!update.reservationId)
        scheduleRetry(name, applied);
    if (applied) {
        spdlog::info("{}: applied, now {}", name, core::describe(record.actual));
        if (observer_)
            observer_->resourcesApplied(name, record.actual);
        if (update.done)
            update.done(record);
    } else {
        spdlog::warn("{}: update failed: {}", name, record.message);
        if (observer_)
            observer_->updateFailed(name, code, record.message);
        if (update.done)
            update.done(ResizeError(code, record.message));
    }
    startNextQueued(name);
}

void ResourceManager::startNextQueued(const std::string& name)
{
    auto waiting = waiting_.find(name);
    if (waiting == waiting_.end())
        return;
    Queued next = std::move(waiting->second.front());
    waiting->second.pop_front();
    if (waiting->second.empty())
        waiting_.erase(waiting);
    try {
        startUpdate(resolve(name), std::move(next));
    } catch (const ResizeError& error) {
        next.done(error);
    }
}

std::pair<bool, std::string> ResourceManager::validate(const std::string& workload,
                                                       core::Resources request)
{
    Target target = resolve(workload);
    const core::Resources desired = target.record ? target.record->desired : core::Resources{};
    const core::Resources createLimits = target.container ? target.container->createLimits : core::Resources{};
    if (request.allowedCpus && !request.allowedCpus->empty() &&
        !core::isSubset(core::parseCpuSet(*request.allowedCpus).value_or(core::CpuSet{}), node_.cpus))
        return {false, "asked CPUs " + *request.allowedCpus + ", this node has " +
                           core::formatCpuSet(node_.cpus)};
    if (!target.running())
        return {true, "the container is not running; the change would wait for it"};
    const core::Amounts current =
        target.record ? target.record->allocated : core::allocationOf(createLimits);
    const core::Amounts wanted = core::allocationOf(createLimits.overlaidWith(desired).overlaidWith(request));
    const core::NodeBudget node{capacity_, store_.allocatedTotal() + unmanagedAllocation(target.name),
                                store_.reservedTotal()};
    const core::AdmissionDecision decision = core::admit(node, current, wanted);
    if (decision.verdict == core::Verdict::Admitted)
        return {true, ""};
    return {false, decision.reason};
}

store::WorkloadRecord ResourceManager::status(const std::string& workload)
{
    Target target;
    try {
        target = resolve(workload);
    } catch (const ResizeError& error) {
        // The store alone answers while Podman is away.
        if (error.code() != ErrorCode::RuntimeUnavailable)
            throw;
        if (auto record = store_.find(workload))
            return *record;
        throw;
    }
    store::WorkloadRecord record = target.record.value_or(newRecord(target.name));
    if (target.container) {
        record.containerId = target.container->id;
        record.pod = target.container->podName;
        record.runState = target.container->running ? core::RunState::Running : core::RunState::Stopped;
        record.cgroupPath = target.container->cgroupPath;
    }
    if (target.running()) {
        record.driver = std::string(drivers_.forCgroup(record.cgroupPath).driverName());
        try {
            record.actual = readActual(record.cgroupPath);
        } catch (const cgroup::CgroupError& error) {
            spdlog::warn("{}: cannot read its cgroup: {}", record.name, error.what());
        }
    }
    return record;
}

std::vector<store::WorkloadRecord> ResourceManager::workloads() { return store_.workloads(); }

void ResourceManager::forget(const std::string& workload, uint32_t callerUid)
{
    const uint64_t started = nowUsec();
    if (workload.empty())
        throw ResizeError(ErrorCode::InvalidArgument, "the workload name is empty");
    std::optional<runtime::Container> container;
    try {
        container = inspect(workload);
    } catch (const ResizeError& error) {
        if (error.code() != ErrorCode::RuntimeUnavailable)
            throw;
    }
    const std::string name = container ? container->name : workload;
    if (!store_.find(name))
        throw ResizeError(ErrorCode::NoSuchWorkload, "resized does not manage \"" + workload + "\"");
    if (inFlight_.contains(name))
        throw ResizeError(ErrorCode::InvalidArgument,
                          "an update of \"" + name + "\" is in progress; forget it afterwards");
    store_.remove(name);
    if (container && container->running)
        unmanaged_[name] = core::allocationOf(container->createLimits);
    scheduleDeferredPass();
    spdlog::info("{}: forgotten; its limits stay as they are", name);
    recordHistory(name, callerUid, "forget", {}, "success", "", started);
    if (observer_) {
        observer_->workloadForgotten(name);
        observer_->budgetChanged();
    }
}

void ResourceManager::notifyChanged(const store::WorkloadRecord& record)
{
    if (!observer_)
        return;
    observer_->workloadChanged(record);
    observer_->budgetChanged();
}

void ResourceManager::setRuntimeConnected(bool connected)
{
    if (connected == runtimeConnected_)
        return;
    runtimeConnected_ = connected;
    if (connected)
        spdlog::info("connected to Podman at {}", podman_.socketPath());
    else
        spdlog::warn("lost Podman at {}", podman_.socketPath());
    if (observer_)
        observer_->runtimeConnectionChanged(connected);
}

void ResourceManager::recordHistory(const std::string& workload, uint32_t callerUid,
                                    std::string_view operation, const core::Resources& request,
                                    std::string_view result, const std::string& message,
                                    uint64_t startedAtUsec)
{
    try {
        store_.recordHistory({
            .workload = workload,
            .callerUid = callerUid,
            .operation = std::string(operation),
            .request = store::toJson(request),
            .result = std::string(result),
            .message = message,
            .startedAtUsec = startedAtUsec,
            .finishedAtUsec = nowUsec(),
        });
    } catch (const store::StoreError& error) {
        spdlog::error("{}: cannot record history: {}", workload, error.what());
    }
}

// Called inside the admission transaction. The request waits in the store,
// not in the desired state, so nothing acts on it before it is admitted.
void ResourceManager::deferUpdate(const Target& target, store::WorkloadRecord record,
                                  const core::Resources& previousDesired, const Queued& queued,
                                  const std::string& reason, uint64_t started)
{
    const bool known = target.record.has_value();
    record.desired = previousDesired;
    if (!known) {
        record.containerId = target.container->id;
        record.pod = target.container->podName;
        record.cgroupPath = target.container->cgroupPath;
        record.driver = std::string(drivers_.forCgroup(record.cgroupPath).driverName());
        record.runState = core::RunState::Running;
        record.holdsAllocation = true;
        record.allocated = core::allocationOf(target.container->createLimits);
        unmanaged_.erase(target.name);
    }
    record.updateState = core::UpdateState::Deferred;
    record.message = "waiting for capacity: " + reason;
    record.updatedAtUsec = started;
    store_.save(record);
    store_.deferUpdate({
        .workload = target.name,
        .request = queued.request,
        .force = queued.options.force,
        .reclaimTimeoutUsec = queued.options.reclaimTimeout
                                  ? std::optional<uint64_t>(queued.options.reclaimTimeout->count())
                                  : std::nullopt,
        .callerUid = queued.callerUid,
        .createdAtUsec = started,
    });
    spdlog::info("{}: deferred {}: {}", target.name, core::describe(queued.request), reason);
    recordHistory(target.name, queued.callerUid, "update", queued.request, "deferred", record.message,
                  started);
}

void ResourceManager::scheduleDeferredPass()
{
    if (!deferredPass_)
        deferredPass_ = loop_.after(std::chrono::microseconds(0), [this] {
            deferredPass_ = {};
            runDeferredPass();
        });
}

// Decreases first (they always fit and free capacity), then oldest first.
void ResourceManager::runDeferredPass()
{
    auto waiting = store_.deferredUpdates();
    std::stable_partition(waiting.begin(), waiting.end(), [this](const store::DeferredUpdate& update) {
        auto record = store_.find(update.workload);
        return record && core::allocationOf(record->desired.overlaidWith(update.request)).cpuMillis <=
                             record->allocated.cpuMillis &&
               core::allocationOf(record->desired.overlaidWith(update.request)).memory <=
                   record->allocated.memory;
    });
    for (const auto& update : waiting) {
        if (inFlight_.contains(update.workload))
            continue;
        Target target;
        try {
            target = resolve(update.workload);
        } catch (const ResizeError& error) {
            if (error.code() == ErrorCode::RuntimeUnavailable)
                return;
            store_.removeDeferred(update.workload);
            continue;
        }
        if (!target.running() || !validate(update.workload, update.request).first)
            continue;
        UpdateOptions options;
        options.force = update.force;
        if (update.reclaimTimeoutUsec)
            options.reclaimTimeout = std::chrono::microseconds(*update.reclaimTimeoutUsec);
        const std::string name = target.name;
        spdlog::info("{}: capacity freed, applying the deferred {}", name, core::describe(update.request));
        startUpdate(std::move(target), Queued{update.request, options, update.callerUid,
                                              [name](const UpdateResult& result) {
                                                  if (auto* error = std::get_if<ResizeError>(&result))
                                                      spdlog::warn("{}: deferred update failed: {}", name,
                                                                   error->what());
                                              }});
    }
}

// A repair that failed is tried again after the retry interval, doubling
// each time, up to the configured number of attempts; after that the
// workload stays failed until the next trigger (sync, event, Reconcile).
void ResourceManager::scheduleRetry(const std::string& name, bool repaired)
{
    if (repaired) {
        retries_.erase(name);
        return;
    }
    Retry& retry = retries_[name];
    if (++retry.attempts >= settings_.retryAttempts) {
        spdlog::error("{}: repair failed {} times; giving up until the next sync", name, retry.attempts);
        retries_.erase(name);
        return;
    }
    const auto delay = settings_.retryInterval * (1u << std::min(retry.attempts - 1, 10u));
    spdlog::info("{}: repair failed; retrying in {} ms", name, delay.count());
    retry.timer = loop_.after(delay, [this, name] { reconcileOne(name); });
}

// The keys an update may write: a memory.max shrink lowers memory.high for a
// while, so a crash in between must be able to put it back.
core::Resources ResourceManager::touchedBy(const core::Resources& request)
{
    core::Resources touched = request;
    if (touched.memoryMax && !touched.memoryHigh)
        touched.memoryHigh = 0;
    return touched;
}

store::WorkloadRecord ResourceManager::newRecord(const std::string& name)
{
    store::WorkloadRecord record;
    record.name = name;
    return record;
}

}  // namespace resized::service
