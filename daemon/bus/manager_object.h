#pragma once

#include <map>
#include <memory>
#include <string>

#include <sdbus-c++/sdbus-c++.h>

#include "bus/authorization.h"
#include "bus/plan_object.h"
#include "bus/pool_object.h"
#include "bus/variants.h"
#include "bus/workload_object.h"
#include "manager_adaptor.h"
#include "service/autoscaler.h"
#include "service/event_loop.h"
#include "service/metrics.h"
#include "service/node_workloads.h"
#include "service/pools.h"
#include "service/resource_manager.h"

namespace resized::bus {

// /io/resized1: io.resized1.Manager, the ObjectManager of the workload and
// pool objects, and the observer that keeps them and the properties current.
class ManagerObject final
    : public sdbus::AdaptorInterfaces<io::resized1::Manager_adaptor, sdbus::ObjectManager_adaptor,
                                      sdbus::Properties_adaptor>,
      public service::ManagerObserver,
      public service::PlanObserver,
      public WorkloadCommands {
public:
    ManagerObject(sdbus::IConnection& connection, service::EventLoop& loop,
                  service::ResourceManager& manager, service::Autoscaler& autoscaler, service::Metrics& metrics,
                  service::Pools& pools, service::Plans& plans, service::NodeWorkloads& nodeWorkloads,
                  std::string adminGroup);
    ~ManagerObject();

    void setAdminGroup(std::string group) { authorization_.setAdminGroup(std::move(group)); }

    // Publishes one object per workload, pool and plan the store knows.
    void publishObjects();

    void workloadChanged(const store::WorkloadRecord& record) override;
    void workloadForgotten(const std::string& name) override;
    void budgetChanged() override;
    void runtimeConnectionChanged(bool connected) override;
    void resourcesApplied(const std::string& name, const core::Resources& actual) override;
    void driftDetected(const std::string& name, const core::Resources& desired,
                       const core::Resources& actual) override;
    void updateFailed(const std::string& name, service::ErrorCode code, const std::string& message) override;
    void poolDisrupted(const store::Disruption& disruption) override;

    void planSubmitted(const store::PlanRecord& plan) override;
    void planRunning(const store::PlanRecord& plan) override;
    void planFinished(const store::PlanRecord& plan) override;
    void planRemoved(int64_t id) override { planObjects_.erase(id); }

    void updateWorkload(const sdbus::Message& call, sdbus::Result<Dictionary>&& result,
                        const std::string& name, const Dictionary& resources,
                        const Dictionary& options) override;
    void reconcileWorkload(const sdbus::Message& call, sdbus::Result<>&& result, const std::string& name) override;
    void forgetWorkload(const sdbus::Message& call, sdbus::Result<>&& result, const std::string& name) override;

private:
    core::NodeBudget budget();
    service::CpuPools cpuPools() const { return manager_.cpuPools(); }
    void UpdateResources(sdbus::Result<Dictionary>&& result, std::string workload, Dictionary resources,
                         Dictionary options) override;
    void ValidateResourceUpdate(sdbus::Result<bool, std::string>&& result, std::string workload,
                                Dictionary resources) override;
    void GetResourceStatus(sdbus::Result<Dictionary>&& result, std::string workload) override;
    std::vector<sdbus::Struct<std::string, std::string, std::string, sdbus::ObjectPath>> ListWorkloads() override;
    void ListNodeWorkloads(sdbus::Result<std::vector<Dictionary>>&& result) override;
    void Reconcile(sdbus::Result<>&& result, std::string workload) override;
    void Forget(sdbus::Result<>&& result, std::string workload) override;
    std::vector<Dictionary> GetHistory(const std::string& workload, const uint64_t& limit) override;
    std::string GetMetrics() override;
    void SetAutoscalePolicy(sdbus::Result<>&& result, std::string workload, Dictionary policy) override;
    void RemoveAutoscalePolicy(const std::string& workload) override;
    void ReportMetrics(const std::string& workload, const std::map<std::string, double>& values) override;
    void SetPool(const std::string& name, const Dictionary& spec) override;
    void RemovePool(const std::string& name) override;
    std::vector<sdbus::Struct<std::string, sdbus::ObjectPath>> ListPools() override;
    void SubmitPlan(sdbus::Result<sdbus::ObjectPath>&& result, std::vector<PlanChangeStruct> changes,
                    Dictionary options) override;
    std::vector<sdbus::Struct<uint64_t, sdbus::ObjectPath>> ListPlans() override;
    void PrepareContainer(sdbus::Result<std::string>&& result, std::string containerId, std::string containerName,
                          uint32_t pid) override;

    std::string Version() override;
    std::string CgroupVersion() override;
    bool RuntimeConnected() override;
    uint64_t CpuCapacityMillis() override;
    uint64_t MemoryCapacity() override;
    uint64_t CpuAllocatedMillis() override;
    uint64_t MemoryAllocated() override;
    uint64_t CpuReservedMillis() override;
    uint64_t MemoryReserved() override;
    uint64_t CpuAvailableMillis() override;
    uint64_t MemoryAvailable() override;
    std::string CpuManagerPolicy() override;
    std::string SharedCpus() override;
    std::string ReservedCpus() override;
    std::string ExclusiveCpuSet() override;
    uint32_t NumaNodes() override;

    const sdbus::Message& currentCall();
    // The status dictionary, with the autoscaler's keys where it has a
    // policy for the workload.
    std::tuple<Dictionary> statusOf(const store::WorkloadRecord& record) const;
    void reapRetired();
    // Every pool object as the store has it now: created, changed, removed.
    void refreshPools();
    // The plan's object shows `plan` as it is now, published if it was not.
    void refreshPlan(const store::PlanRecord& plan);

    service::EventLoop& loop_;
    service::ResourceManager& manager_;
    service::Autoscaler& autoscaler_;
    service::Metrics& metrics_;
    service::Pools& pools_;
    service::Plans& plans_;
    service::NodeWorkloads& nodeWorkloads_;
    ChangeAuthorization authorization_;
    core::NodeBudget lastBudget_;
    service::CpuPools lastCpuPools_;
    std::map<std::string, std::unique_ptr<WorkloadObject>> workloads_;
    // A workload object forgotten from its own Forget() call is destroyed on
    // the next loop iteration, not while its method is being dispatched.
    std::map<std::string, std::unique_ptr<WorkloadObject>> retired_;
    service::EventSource reaper_;
    // Workloads managed again before their forgotten object went: their path
    // is taken until then.
    std::map<std::string, store::WorkloadRecord> publishAfterReaping_;
    std::map<std::string, std::unique_ptr<PoolObject>> poolObjects_;
    std::map<int64_t, std::unique_ptr<PlanObject>> planObjects_;
};

}  // namespace resized::bus
