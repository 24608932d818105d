#include "bus/manager_object.h"

#include <spdlog/spdlog.h>

#include <chrono>
#include <functional>
#include <limits>
#include <tuple>
#include <utility>
#include <variant>

#include "bus/authorization.h"
#include "bus/errors_translation.h"
#include "bus/object_path.h"
#include "build_config.h"
#include "core/cpuset.h"
#include "service/node.h"

namespace resized::bus {

std::string dbusErrorName(service::ErrorCode code)
{
    if (code == service::ErrorCode::AccessDenied)
        return "org.freedesktop.DBus.Error.AccessDenied";
    if (code == service::ErrorCode::Failed)
        return "org.freedesktop.DBus.Error.Failed";
    return "io.resized1.Error." + std::string(service::toString(code));
}

sdbus::Error toDbusError(const service::ResizeError& error)
{
    return sdbus::Error(dbusErrorName(error.code()), error.what());
}

namespace {

constexpr const char* kManagerInterface = io::resized1::Manager_adaptor::INTERFACE_NAME;

// Answers an asynchronous call with the manager's outcome: its value,
// encoded as the tuple of the method's results, or its error.
template <typename... Results, typename Value, typename Encode>
void returnOutcome(sdbus::Result<Results...>& reply, const service::Outcome<Value>& outcome, Encode encode)
{
    if (const auto* error = std::get_if<service::ResizeError>(&outcome)) {
        reply.returnError(toDbusError(*error));
        return;
    }
    std::apply([&reply](const auto&... results) { reply.returnResults(results...); },
               encode(std::get<Value>(outcome)));
}

// How a call ended, as the metrics label it: "success", or its error's
// last name ("Infeasible", "AccessDenied").
using Tally = std::function<void(std::string_view result)>;

std::string_view shortErrorName(std::string_view name) { return name.substr(name.rfind('.') + 1); }

// Answers `result` once the manager is done: `start` asks the manager,
// handing it the function that takes its outcome. What `start` throws (a
// caller without the permission, a bad argument) is answered at once.
// `tally` (if any) learns how the call ended.
template <typename Value, typename... Results, typename Encode, typename Start>
void answerWhenDone(sdbus::Result<Results...>&& result, Encode encode, Start start, Tally tally = {})
{
    auto reply = std::make_shared<sdbus::Result<Results...>>(std::move(result));
    try {
        translatingErrors([&] {
            start([reply, encode, tally](const service::Outcome<Value>& outcome) {
                returnOutcome(*reply, outcome, encode);
                if (!tally)
                    return;
                const auto* error = std::get_if<service::ResizeError>(&outcome);
                tally(error ? shortErrorName(dbusErrorName(error->code())) : "success");
            });
        });
    } catch (const sdbus::Error& error) {
        reply->returnError(error);
        if (tally)
            tally(shortErrorName(error.getName()));
    }
}

std::tuple<> noResults(std::monostate) { return {}; }

}  // namespace

ManagerObject::ManagerObject(sdbus::IConnection& connection, service::EventLoop& loop,
                             service::ResourceManager& manager, service::Autoscaler& autoscaler,
                             service::Metrics& metrics, service::Pools& pools, service::Plans& plans,
                             service::NodeWorkloads& nodeWorkloads, std::string adminGroup)
    : AdaptorInterfaces(connection, std::string(kManagerPath)),
      loop_(loop),
      manager_(manager),
      autoscaler_(autoscaler),
      metrics_(metrics),
      pools_(pools),
      plans_(plans),
      nodeWorkloads_(nodeWorkloads),
      authorization_(std::move(adminGroup)),
      lastBudget_(manager_.budget()),
      lastCpuPools_(manager_.cpuPools())
{
    registerAdaptor();
    manager_.setObserver(this);
    plans_.setObserver(this);
}

ManagerObject::~ManagerObject()
{
    manager_.setObserver(nullptr);
    plans_.setObserver(nullptr);
    // At shutdown the workload objects go quietly, before their object manager.
    workloads_.clear();
    retired_.clear();
    publishAfterReaping_.clear();
    poolObjects_.clear();
    planObjects_.clear();
    unregisterAdaptor();
}

void ManagerObject::publishObjects()
{
    for (const auto& record : manager_.workloads())
        workloadChanged(record);
    refreshPools();
    for (const auto& plan : plans_.list())
        planSubmitted(plan);
}

void ManagerObject::planSubmitted(const store::PlanRecord& plan)
{
    planObjects_[plan.id] = std::make_unique<PlanObject>(getObject().getConnection(), plans_, authorization_, plan);
}

void ManagerObject::planRunning(const store::PlanRecord& plan) { refreshPlan(plan); }

void ManagerObject::planFinished(const store::PlanRecord& plan)
{
    refreshPlan(plan);
    metrics_.planFinished(core::toString(plan.state), core::toString(plan.reason));
    emitPlanFinished(sdbus::ObjectPath(planPath(plan.id)), std::string(core::toString(plan.state)),
                     std::string(core::toString(plan.reason)), plan.message);
}

void ManagerObject::refreshPlan(const store::PlanRecord& plan)
{
    if (auto object = planObjects_.find(plan.id); object != planObjects_.end())
        object->second->refresh(plan);
    else
        planSubmitted(plan);
}

void ManagerObject::refreshPools()
{
    std::map<std::string, std::unique_ptr<PoolObject>> current;
    for (const auto& pool : pools_.list()) {
        auto status = pools_.status(pool.name);
        auto existing = poolObjects_.extract(pool.name);
        if (existing.empty()) {
            current.emplace(pool.name, std::make_unique<PoolObject>(getObject().getConnection(), pools_, std::move(status)));
        } else {
            existing.mapped()->refresh(status);
            current.insert(std::move(existing));
        }
    }
    // What is left in poolObjects_ was removed: its objects go with it.
    poolObjects_ = std::move(current);
}

const sdbus::Message& ManagerObject::currentCall() { return *getObject().getCurrentlyProcessedMessage(); }

void ManagerObject::workloadChanged(const store::WorkloadRecord& record)
{
    autoscaler_.workloadChanged(record);
    auto existing = workloads_.find(record.name);
    if (existing != workloads_.end()) {
        existing->second->refresh(record);
        return;
    }
    // A call dispatched before the reaper (an update right after Forget)
    // would register the path a second time.
    if (retired_.contains(record.name)) {
        publishAfterReaping_.insert_or_assign(record.name, record);
        return;
    }
    workloads_.emplace(record.name, std::make_unique<WorkloadObject>(getObject().getConnection(), *this, record));
}

void ManagerObject::workloadForgotten(const std::string& name)
{
    // Forgotten means left alone: the autoscaler would manage it again.
    autoscaler_.removePolicy(name);
    publishAfterReaping_.erase(name);
    auto node = workloads_.extract(name);
    if (node.empty())
        return;
    retired_.insert(std::move(node));
    reaper_ = loop_.after(std::chrono::microseconds(0), [this] { reapRetired(); });
}

void ManagerObject::reapRetired()
{
    retired_.clear();
    for (const auto& [name, record] : std::exchange(publishAfterReaping_, {}))
        workloadChanged(record);
}

void ManagerObject::budgetChanged()
{
    core::NodeBudget budget;
    try {
        budget = manager_.budget();
    } catch (const store::StoreError& error) {
        spdlog::warn("cannot read the budget to announce it: {}", error.what());
        return;
    }
    std::vector<std::string> changed;
    if (budget.allocated.cpuMillis != lastBudget_.allocated.cpuMillis)
        changed.emplace_back("CpuAllocatedMillis");
    if (budget.allocated.memory != lastBudget_.allocated.memory)
        changed.emplace_back("MemoryAllocated");
    if (budget.reserved.cpuMillis != lastBudget_.reserved.cpuMillis)
        changed.emplace_back("CpuReservedMillis");
    if (budget.capacity.cpuMillis != lastBudget_.capacity.cpuMillis)
        changed.emplace_back("CpuCapacityMillis");
    if (budget.capacity.memory != lastBudget_.capacity.memory)
        changed.emplace_back("MemoryCapacity");
    if (budget.reserved.memory != lastBudget_.reserved.memory)
        changed.emplace_back("MemoryReserved");
    if (budget.available().cpuMillis != lastBudget_.available().cpuMillis)
        changed.emplace_back("CpuAvailableMillis");
    if (budget.available().memory != lastBudget_.available().memory)
        changed.emplace_back("MemoryAvailable");
    lastBudget_ = budget;
    const service::CpuPools pools = cpuPools();
    if (pools.shared != lastCpuPools_.shared)
        changed.emplace_back("SharedCpus");
    if (pools.exclusive != lastCpuPools_.exclusive)
        changed.emplace_back("ExclusiveCpuSet");
    lastCpuPools_ = pools;
    if (!changed.empty())
        emitPropertiesChangedSignal(kManagerInterface, changed);
    try {
        refreshPools();
    } catch (const store::StoreError& error) {
        spdlog::warn("cannot read the pools to announce them: {}", error.what());
    }
}

void ManagerObject::runtimeConnectionChanged(bool)
{
    emitPropertiesChangedSignal(kManagerInterface, {"RuntimeConnected"});
}

void ManagerObject::resourcesApplied(const std::string& name, const core::Resources& actual)
{
    emitResourcesApplied(name, encodeResources(actual));
}

void ManagerObject::driftDetected(const std::string& name, const core::Resources& desired,
                                  const core::Resources& actual)
{
    metrics_.driftDetected();
    emitDriftDetected(name, encodeResources(desired), encodeResources(actual));
}

void ManagerObject::updateFailed(const std::string& name, service::ErrorCode code, const std::string& message)
{
    emitUpdateFailed(name, dbusErrorName(code), message);
}

void ManagerObject::poolDisrupted(const store::Disruption& disruption)
{
    metrics_.poolDisrupted(disruption.pool, core::toString(disruption.reason));
}

void ManagerObject::updateWorkload(const sdbus::Message& call, sdbus::Result<Dictionary>&& result,
                                   const std::string& name, const Dictionary& resources,
                                   const Dictionary& options)
{
    const auto started = std::chrono::steady_clock::now();
    const bool exclusive = resources.contains("ExclusiveCpus");
    // Known before the change: a member's slice comes from the bubble its
    // pod holds when it asks.
    const auto source = exclusive && manager_.slicesFromPodBubble(name) ? service::ExclusiveCpusSource::Pod
                                                                        : service::ExclusiveCpusSource::Node;
    answerWhenDone<store::WorkloadRecord>(
        std::move(result), [this](const store::WorkloadRecord& record) { return statusOf(record); },
        [&](service::UpdateCallback done) {
            const uid_t caller = authorization_.requireChangePermission(call);
            manager_.update(name, decodeResources(resources), decodeOptions(options), caller, std::move(done));
        },
        [&metrics = metrics_, started, exclusive, source](std::string_view outcome) {
            metrics.updateAnswered(outcome, std::chrono::steady_clock::now() - started);
            if (exclusive)
                metrics.exclusiveCpusAnswered(source, outcome);
        });
}

void ManagerObject::reconcileWorkload(const sdbus::Message& call, sdbus::Result<>&& result, const std::string& name)
{
    answerWhenDone<std::monostate>(std::move(result), noResults, [&](service::Answer<std::monostate> done) {
        authorization_.requireChangePermission(call);
        manager_.reconcile(name, std::move(done));
    });
}

void ManagerObject::forgetWorkload(const sdbus::Message& call, sdbus::Result<>&& result, const std::string& name)
{
    answerWhenDone<std::monostate>(std::move(result), noResults, [&](service::Answer<std::monostate> done) {
        manager_.forget(name, authorization_.requireChangePermission(call), std::move(done));
    });
}

void ManagerObject::UpdateResources(sdbus::Result<Dictionary>&& result, std::string workload,
                                    Dictionary resources, Dictionary options)
{
    updateWorkload(currentCall(), std::move(result), workload, resources, options);
}

void ManagerObject::ValidateResourceUpdate(sdbus::Result<bool, std::string>&& result, std::string workload,
                                           Dictionary resources)
{
    answerWhenDone<service::Verdict>(
        std::move(result), [](const service::Verdict& verdict) { return verdict; },
        [&](service::Answer<service::Verdict> done) {
            manager_.validate(workload, decodeResources(resources), std::move(done));
        });
}

void ManagerObject::GetResourceStatus(sdbus::Result<Dictionary>&& result, std::string workload)
{
    answerWhenDone<store::WorkloadRecord>(
        std::move(result), [this](const store::WorkloadRecord& record) { return statusOf(record); },
        [&](service::UpdateCallback done) { manager_.status(workload, std::move(done)); });
}

std::tuple<Dictionary> ManagerObject::statusOf(const store::WorkloadRecord& record) const
{
    Dictionary status = encodeStatus(record);
    if (const auto autoscale = autoscaler_.view(record.name)) {
        status.emplace("Autoscale", sdbus::Variant(dbus_codec::encodeAutoscalePolicy(autoscale->policy)));
        status.emplace("AutoscaleStatus", sdbus::Variant(encodeAutoscaleStatus(autoscale->status)));
    }
    return {std::move(status)};
}

std::vector<sdbus::Struct<std::string, std::string, std::string, sdbus::ObjectPath>> ManagerObject::ListWorkloads()
{
    return translatingErrors([&] {
        std::vector<sdbus::Struct<std::string, std::string, std::string, sdbus::ObjectPath>> list;
        for (const auto& record : manager_.workloads())
            list.emplace_back(record.name, std::string(core::toString(record.syncState)),
                              std::string(core::toString(record.updateState)),
                              sdbus::ObjectPath(workloadPath(record.name)));
        return list;
    });
}

void ManagerObject::ListNodeWorkloads(sdbus::Result<std::vector<Dictionary>>&& result)
{
    answerWhenDone<std::vector<service::NodeWorkload>>(
        std::move(result),
        [](const std::vector<service::NodeWorkload>& workloads) {
            std::vector<Dictionary> encoded;
            for (const auto& workload : workloads)
                encoded.push_back(encodeNodeWorkload(workload));
            return std::tuple(std::move(encoded));
        },
        [&](service::Answer<std::vector<service::NodeWorkload>> done) { nodeWorkloads_.list(std::move(done)); });
}

void ManagerObject::Reconcile(sdbus::Result<>&& result, std::string workload)
{
    reconcileWorkload(currentCall(), std::move(result), workload);
}

void ManagerObject::Forget(sdbus::Result<>&& result, std::string workload)
{
    forgetWorkload(currentCall(), std::move(result), workload);
}

std::vector<Dictionary> ManagerObject::GetHistory(const std::string& workload, const uint64_t& limit)
{
    return translatingErrors([&] {
        std::vector<Dictionary> entries;
        for (const auto& entry : manager_.history(workload, limit))
            entries.push_back(encodeHistoryEntry(entry));
        return entries;
    });
}

std::string ManagerObject::GetMetrics() { return metrics_.exposition(); }

void ManagerObject::SetAutoscalePolicy(sdbus::Result<>&& result, std::string workload, Dictionary policy)
{
    answerWhenDone<store::WorkloadRecord>(
        std::move(result), [](const store::WorkloadRecord&) { return std::tuple<>(); },
        [&](service::UpdateCallback done) {
            authorization_.requireChangePermission(currentCall());
            // Checked before the workload is looked up: a bad policy is the
            // caller's error whatever the workload.
            auto decoded = decodeAutoscalePolicy(policy);
            if (auto refused = autoscaler_.refusal(decoded))
                throw service::ResizeError(service::ErrorCode::InvalidArgument, *refused);
            manager_.status(workload, [this, decoded = std::move(decoded), done = std::move(done)](
                                          const service::UpdateResult& found) {
                if (const auto* record = std::get_if<store::WorkloadRecord>(&found)) {
                    try {
                        autoscaler_.setPolicy(record->name, decoded);
                    } catch (const store::StoreError& error) {
                        done(service::ResizeError(service::ErrorCode::Failed,
                                                  "the policy could not be stored: " + std::string(error.what())));
                        return;
                    }
                }
                done(found);
            });
        });
}

void ManagerObject::RemoveAutoscalePolicy(const std::string& workload)
{
    translatingErrors([&] {
        authorization_.requireChangePermission(currentCall());
        const auto name = core::parseWorkloadName(workload);
        if (!name || !autoscaler_.removePolicy(name->canonical()))
            throw service::ResizeError(service::ErrorCode::NoSuchWorkload,
                                       "no autoscale policy for \"" + workload + "\"");
    });
}

void ManagerObject::ReportMetrics(const std::string& workload, const std::map<std::string, double>& values)
{
    translatingErrors([&] {
        authorization_.requireChangePermission(currentCall());
        const auto name = core::parseWorkloadName(workload);
        if (!name)
            throw service::ResizeError(service::ErrorCode::InvalidArgument,
                                       "\"" + workload + "\" is not a workload name");
        autoscaler_.report(name->canonical(), values);
    });
}

void ManagerObject::SetPool(const std::string& name, const Dictionary& spec)
{
    translatingErrors([&] {
        authorization_.requireChangePermission(currentCall());
        pools_.set(name, decodePoolSpec(spec));
    });
}

void ManagerObject::RemovePool(const std::string& name)
{
    translatingErrors([&] {
        authorization_.requireChangePermission(currentCall());
        pools_.remove(name);
    });
}

std::vector<sdbus::Struct<std::string, sdbus::ObjectPath>> ManagerObject::ListPools()
{
    return translatingErrors([&] {
        std::vector<sdbus::Struct<std::string, sdbus::ObjectPath>> list;
        for (const auto& pool : pools_.list())
            list.emplace_back(pool.name, sdbus::ObjectPath(poolPath(pool.name)));
        return list;
    });
}

void ManagerObject::SubmitPlan(sdbus::Result<sdbus::ObjectPath>&& result, std::vector<PlanChangeStruct> changes,
                               Dictionary options)
{
    answerWhenDone<store::PlanRecord>(
        std::move(result),
        [](const store::PlanRecord& plan) { return std::tuple(sdbus::ObjectPath(planPath(plan.id))); },
        [&](service::Answer<store::PlanRecord> done) {
            const uid_t caller = authorization_.requireChangePermission(currentCall());
            plans_.submit(decodePlanRequest(changes, options), caller, std::move(done));
        });
}

std::vector<sdbus::Struct<uint64_t, sdbus::ObjectPath>> ManagerObject::ListPlans()
{
    return translatingErrors([&] {
        std::vector<sdbus::Struct<uint64_t, sdbus::ObjectPath>> list;
        for (const auto& plan : plans_.list())
            list.emplace_back(static_cast<uint64_t>(plan.id), sdbus::ObjectPath(planPath(plan.id)));
        return list;
    });
}

void ManagerObject::PrepareContainer(sdbus::Result<std::string>&& result, std::string containerId,
                                     std::string containerName, uint32_t pid)
{
    answerWhenDone<std::string>(
        std::move(result), [](const std::string& workload) { return std::tuple(workload); },
        [&](service::PrepareCallback done) {
            authorization_.requireChangePermission(currentCall());
            if (pid > static_cast<uint32_t>(std::numeric_limits<pid_t>::max()))
                throw service::ResizeError(service::ErrorCode::InvalidArgument, "the process ID is out of range");
            manager_.prepareContainer(containerId, containerName, static_cast<pid_t>(pid), std::move(done));
        });
}

// sdbus-c++ 1.2 passes only sdbus::Error out of a property getter: a store
// that cannot be read must become one, not end the daemon.
core::NodeBudget ManagerObject::budget()
{
    return translatingErrors([&] { return manager_.budget(); });
}

std::string ManagerObject::Version() { return RESIZED_VERSION; }
std::string ManagerObject::CgroupVersion() { return manager_.node().cgroupVersion; }
bool ManagerObject::RuntimeConnected() { return manager_.runtimeConnected(); }
uint64_t ManagerObject::CpuCapacityMillis() { return budget().capacity.cpuMillis; }
uint64_t ManagerObject::MemoryCapacity() { return budget().capacity.memory; }
uint64_t ManagerObject::CpuAllocatedMillis() { return budget().allocated.cpuMillis; }
uint64_t ManagerObject::MemoryAllocated() { return budget().allocated.memory; }
uint64_t ManagerObject::CpuReservedMillis() { return budget().reserved.cpuMillis; }
uint64_t ManagerObject::MemoryReserved() { return budget().reserved.memory; }
uint64_t ManagerObject::CpuAvailableMillis() { return budget().available().cpuMillis; }
uint64_t ManagerObject::MemoryAvailable() { return budget().available().memory; }
std::string ManagerObject::CpuManagerPolicy() { return cpuPools().policy; }
std::string ManagerObject::SharedCpus() { return core::formatCpuSet(cpuPools().shared); }
std::string ManagerObject::ReservedCpus() { return core::formatCpuSet(cpuPools().reserved); }
std::string ManagerObject::ExclusiveCpuSet() { return core::formatCpuSet(cpuPools().exclusive); }
uint32_t ManagerObject::NumaNodes() { return static_cast<uint32_t>(manager_.node().topology.numaNodeCount()); }

}  // namespace resized::bus
