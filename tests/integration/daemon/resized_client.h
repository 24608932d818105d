#pragma once

#include "resource_values.h"

#include <sdbus-c++/sdbus-c++.h>

#include <functional>
#include <memory>
#include <optional>
#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace resized::integration
{

inline constexpr auto busName = "io.resized1";
inline constexpr auto managerPath = "/io/resized1";
inline constexpr auto managerInterface = "io.resized1.Manager";
inline constexpr auto workloadInterface = "io.resized1.Workload";
inline constexpr auto poolInterface = "io.resized1.Pool";
inline constexpr auto planInterface = "io.resized1.Plan";

// One change of a plan: workload, resources.
using PlanChange = sdbus::Struct<std::string, Dictionary>;
// One entry of ListPlans: id, object path.
using PlanEntry = sdbus::Struct<std::uint64_t, sdbus::ObjectPath>;
// One entry of ListPools: name, object path.
using PoolEntry = sdbus::Struct<std::string, sdbus::ObjectPath>;
// One entry of ListWorkloads: name, sync state, update state, object path.
using WorkloadEntry =
    sdbus::Struct<std::string, std::string, std::string, sdbus::ObjectPath>;
using ManagedObjects =
    std::map<sdbus::ObjectPath, std::map<std::string, Dictionary>>;

// A client of resized with a bus connection of its own
// (DBUS_SYSTEM_BUS_ADDRESS), making plain synchronous calls; one per thread.
class ResizedClient
{
  public:
    ResizedClient();

    Dictionary updateResources(const std::string& workload,
                               const Dictionary& resources,
                               const Dictionary& options = {});
    Dictionary updateResources(const std::string& workload,
                               const ResourceValues& resources,
                               const Dictionary& options = {});
    std::tuple<bool, std::string>
        validateResourceUpdate(const std::string& workload,
                               const Dictionary& resources);
    Dictionary getResourceStatus(const std::string& workload);
    std::vector<WorkloadEntry> listWorkloads();
    std::vector<Dictionary> listNodeWorkloads();
    void reconcile(const std::string& workload);
    void forget(const std::string& workload);
    std::vector<Dictionary> getHistory(const std::string& workload, std::uint64_t limit);
    // GetMetrics(): the Prometheus text format.
    std::string getMetrics();
    void setAutoscalePolicy(const std::string& workload, const Dictionary& policy);
    void removeAutoscalePolicy(const std::string& workload);
    void reportMetrics(const std::string& workload, const std::map<std::string, double>& values);
    void setPool(const std::string& name, const Dictionary& spec);
    void removePool(const std::string& name);
    std::vector<PoolEntry> listPools();
    sdbus::ObjectPath submitPlan(const std::vector<PlanChange>& changes, const Dictionary& options = {});
    std::vector<PlanEntry> listPlans();
    // Plan.Cancel() of the plan at path.
    void cancelPlan(const sdbus::ObjectPath& path);

    // The methods of the io.resized1.Workload object at path.
    Dictionary updateWorkload(const sdbus::ObjectPath& path, const ResourceValues& resources,
                              const Dictionary& options = {});
    void reconcileWorkload(const sdbus::ObjectPath& path);
    void forgetWorkload(const sdbus::ObjectPath& path);

    sdbus::Variant managerProperty(const std::string& name);
    // Every property of the Manager in one call: one consistent snapshot.
    Dictionary managerProperties();
    std::uint64_t managerNumber(const std::string& name);
    Dictionary workloadProperties(const sdbus::ObjectPath& path);
    // Every property of the io.resized1.Pool object at path.
    Dictionary poolProperties(const sdbus::ObjectPath& path);
    // Every property of the io.resized1.Plan object at path.
    Dictionary planProperties(const sdbus::ObjectPath& path);
    ManagedObjects managedObjects();
    std::string introspect(const std::string& path);

  private:
    std::unique_ptr<sdbus::IConnection> connection_;
    std::unique_ptr<sdbus::IProxy> manager_;
};

// The error a bus call failed with; nullopt when it succeeded.
std::optional<sdbus::Error> errorOf(const std::function<void()>& call);

// The object path of a workload: /io/resized1/workload/ and the name escaped
// like a systemd bus label.
std::string workloadPathOf(const std::string& name);

} // namespace resized::integration
