#include "resized_client.h"

#include <cctype>

namespace resized::integration
{

namespace
{

constexpr auto propertiesInterface = "org.freedesktop.DBus.Properties";

} // namespace

ResizedClient::ResizedClient() :
    connection_(sdbus::createSystemBusConnection()),
    manager_(sdbus::createProxy(*connection_, busName, managerPath))
{}

Dictionary ResizedClient::updateResources(const std::string& workload,
                                          const Dictionary& resources,
                                          const Dictionary& options)
{
    Dictionary status;
    manager_->callMethod("UpdateResources")
        .onInterface(managerInterface)
        .withArguments(workload, resources, options)
        .storeResultsTo(status);
    return status;
}

Dictionary ResizedClient::updateResources(const std::string& workload,
                                          const ResourceValues& resources,
                                          const Dictionary& options)
{
    return updateResources(workload, resources.toDictionary(), options);
}

std::tuple<bool, std::string>
    ResizedClient::validateResourceUpdate(const std::string& workload,
                                          const Dictionary& resources)
{
    bool allowed = false;
    std::string reason;
    manager_->callMethod("ValidateResourceUpdate")
        .onInterface(managerInterface)
        .withArguments(workload, resources)
        .storeResultsTo(allowed, reason);
    return {allowed, reason};
}

Dictionary ResizedClient::getResourceStatus(const std::string& workload)
{
    Dictionary status;
    manager_->callMethod("GetResourceStatus")
        .onInterface(managerInterface)
        .withArguments(workload)
        .storeResultsTo(status);
    return status;
}

std::vector<WorkloadEntry> ResizedClient::listWorkloads()
{
    std::vector<WorkloadEntry> workloads;
    manager_->callMethod("ListWorkloads")
        .onInterface(managerInterface)
        .storeResultsTo(workloads);
    return workloads;
}

std::vector<Dictionary> ResizedClient::listNodeWorkloads()
{
    std::vector<Dictionary> workloads;
    manager_->callMethod("ListNodeWorkloads")
        .onInterface(managerInterface)
        .storeResultsTo(workloads);
    return workloads;
}

void ResizedClient::reconcile(const std::string& workload)
{
    manager_->callMethod("Reconcile")
        .onInterface(managerInterface)
        .withArguments(workload);
}

void ResizedClient::forget(const std::string& workload)
{
    manager_->callMethod("Forget").onInterface(managerInterface).withArguments(workload);
}

std::vector<Dictionary> ResizedClient::getHistory(const std::string& workload, std::uint64_t limit)
{
    std::vector<Dictionary> entries;
    manager_->callMethod("GetHistory")
        .onInterface(managerInterface)
        .withArguments(workload, limit)
        .storeResultsTo(entries);
    return entries;
}

std::string ResizedClient::getMetrics()
{
    std::string metrics;
    manager_->callMethod("GetMetrics").onInterface(managerInterface).storeResultsTo(metrics);
    return metrics;
}

void ResizedClient::setAutoscalePolicy(const std::string& workload, const Dictionary& policy)
{
    manager_->callMethod("SetAutoscalePolicy").onInterface(managerInterface).withArguments(workload, policy);
}

void ResizedClient::removeAutoscalePolicy(const std::string& workload)
{
    manager_->callMethod("RemoveAutoscalePolicy").onInterface(managerInterface).withArguments(workload);
}

void ResizedClient::reportMetrics(const std::string& workload, const std::map<std::string, double>& values)
{
    manager_->callMethod("ReportMetrics").onInterface(managerInterface).withArguments(workload, values);
}

void ResizedClient::setPool(const std::string& name, const Dictionary& spec)
{
    manager_->callMethod("SetPool").onInterface(managerInterface).withArguments(name, spec);
}

void ResizedClient::removePool(const std::string& name)
{
    manager_->callMethod("RemovePool").onInterface(managerInterface).withArguments(name);
}

std::vector<PoolEntry> ResizedClient::listPools()
{
    std::vector<PoolEntry> pools;
    manager_->callMethod("ListPools").onInterface(managerInterface).storeResultsTo(pools);
    return pools;
}

sdbus::ObjectPath ResizedClient::submitPlan(const std::vector<PlanChange>& changes, const Dictionary& options)
{
    sdbus::ObjectPath plan;
    manager_->callMethod("SubmitPlan").onInterface(managerInterface).withArguments(changes, options).storeResultsTo(plan);
    return plan;
}

std::vector<PlanEntry> ResizedClient::listPlans()
{
    std::vector<PlanEntry> plans;
    manager_->callMethod("ListPlans").onInterface(managerInterface).storeResultsTo(plans);
    return plans;
}

void ResizedClient::cancelPlan(const sdbus::ObjectPath& path)
{
    sdbus::createProxy(*connection_, busName, path)->callMethod("Cancel").onInterface(planInterface);
}

Dictionary ResizedClient::updateWorkload(const sdbus::ObjectPath& path,
                                         const ResourceValues& resources,
                                         const Dictionary& options)
{
    const auto workload = sdbus::createProxy(*connection_, busName, path);
    Dictionary status;
    workload->callMethod("Update")
        .onInterface(workloadInterface)
        .withArguments(resources.toDictionary(), options)
        .storeResultsTo(status);
    return status;
}

void ResizedClient::reconcileWorkload(const sdbus::ObjectPath& path)
{
    const auto workload = sdbus::createProxy(*connection_, busName, path);
    workload->callMethod("Reconcile").onInterface(workloadInterface);
}

void ResizedClient::forgetWorkload(const sdbus::ObjectPath& path)
{
    const auto workload = sdbus::createProxy(*connection_, busName, path);
    workload->callMethod("Forget").onInterface(workloadInterface);
}

sdbus::Variant ResizedClient::managerProperty(const std::string& name)
{
    return manager_->getProperty(name).onInterface(managerInterface);
}

std::uint64_t ResizedClient::managerNumber(const std::string& name)
{
    return managerProperty(name).get<std::uint64_t>();
}

Dictionary ResizedClient::managerProperties()
{
    Dictionary properties;
    manager_->callMethod("GetAll")
        .onInterface(propertiesInterface)
        .withArguments(std::string(managerInterface))
        .storeResultsTo(properties);
    return properties;
}

namespace
{

Dictionary allProperties(sdbus::IConnection& connection, const sdbus::ObjectPath& path, const char* interface)
{
    const auto object = sdbus::createProxy(connection, busName, path);
    Dictionary properties;
    object->callMethod("GetAll")
        .onInterface(propertiesInterface)
        .withArguments(std::string(interface))
        .storeResultsTo(properties);
    return properties;
}

} // namespace

Dictionary ResizedClient::workloadProperties(const sdbus::ObjectPath& path)
{
    return allProperties(*connection_, path, workloadInterface);
}

Dictionary ResizedClient::poolProperties(const sdbus::ObjectPath& path)
{
    return allProperties(*connection_, path, poolInterface);
}

Dictionary ResizedClient::planProperties(const sdbus::ObjectPath& path)
{
    return allProperties(*connection_, path, planInterface);
}

ManagedObjects ResizedClient::managedObjects()
{
    ManagedObjects objects;
    manager_->callMethod("GetManagedObjects")
        .onInterface("org.freedesktop.DBus.ObjectManager")
        .storeResultsTo(objects);
    return objects;
}

std::string ResizedClient::introspect(const std::string& path)
{
    const auto object = sdbus::createProxy(*connection_, busName, path);
    std::string xml;
    object->callMethod("Introspect")
        .onInterface("org.freedesktop.DBus.Introspectable")
        .storeResultsTo(xml);
    return xml;
}

std::optional<sdbus::Error> errorOf(const std::function<void()>& call)
{
    try
    {
        call();
    }
    catch (const sdbus::Error& error)
    {
        return error;
    }
    return std::nullopt;
}

std::string workloadPathOf(const std::string& name)
{
    static constexpr char hexDigits[] = "0123456789abcdef";
    const std::string parent = "/io/resized1/workload/";
    std::string path = parent;
    for (const unsigned char c : name)
    {
        // A bus label never starts with a digit.
        const bool leading = path.size() == parent.size();
        if (std::isalpha(c) != 0 || (std::isdigit(c) != 0 && !leading))
        {
            path += static_cast<char>(c);
            continue;
        }
        path += '_';
        path += hexDigits[c >> 4];
        path += hexDigits[c & 0xf];
    }
    return path;
}

} // namespace resized::integration
