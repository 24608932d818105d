// Calls one method of resized's Manager on the system bus and prints "ok" or
// the D-Bus error name of the answer. The daemon tests run it as `nobody`
// through runuser, to be a real unprivileged caller:
//
//   daemon_test_bus_caller METHOD [WORKLOAD]
//
// Methods that take resources ask for CpuMillis 500; SetPool and RemovePool
// take a pool's name for WORKLOAD; SubmitPlan submits one change of WORKLOAD.

#include <sdbus-c++/sdbus-c++.h>

#include <cstdint>
#include <iostream>
#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace
{

using Dictionary = std::map<std::string, sdbus::Variant>;

void call(sdbus::IProxy& manager, const std::string& method, const std::string& workload)
{
    constexpr auto interface = "io.resized1.Manager";
    const Dictionary resources{{"CpuMillis", sdbus::Variant(std::uint64_t{500})}};
    if (method == "UpdateResources")
    {
        Dictionary status;
        manager.callMethod(method)
            .onInterface(interface)
            .withArguments(workload, resources, Dictionary{})
            .storeResultsTo(status);
    }
    else if (method == "ValidateResourceUpdate")
    {
        bool allowed = false;
        std::string reason;
        manager.callMethod(method)
            .onInterface(interface)
            .withArguments(workload, resources)
            .storeResultsTo(allowed, reason);
    }
    else if (method == "GetResourceStatus")
    {
        Dictionary status;
        manager.callMethod(method)
            .onInterface(interface)
            .withArguments(workload)
            .storeResultsTo(status);
    }
    else if (method == "ListWorkloads")
    {
        std::vector<sdbus::Struct<std::string, std::string, std::string, sdbus::ObjectPath>>
            workloads;
        manager.callMethod(method).onInterface(interface).storeResultsTo(workloads);
    }
    else if (method == "ListNodeWorkloads")
    {
        std::vector<Dictionary> workloads;
        manager.callMethod(method).onInterface(interface).storeResultsTo(workloads);
    }
    else if (method == "SetAutoscalePolicy")
    {
        const Dictionary policy{{"CpuTargetUtilization", sdbus::Variant(std::uint32_t{50})}};
        manager.callMethod(method).onInterface(interface).withArguments(workload, policy);
    }
    else if (method == "SetPool")
    {
        manager.callMethod(method).onInterface(interface).withArguments(workload, resources);
    }
    else if (method == "SubmitPlan")
    {
        const std::vector<sdbus::Struct<std::string, Dictionary>> changes{{workload, resources}};
        sdbus::ObjectPath plan;
        manager.callMethod(method).onInterface(interface).withArguments(changes, Dictionary{}).storeResultsTo(plan);
    }
    else if (method == "ListPlans")
    {
        std::vector<sdbus::Struct<std::uint64_t, sdbus::ObjectPath>> plans;
        manager.callMethod(method).onInterface(interface).storeResultsTo(plans);
    }
    else if (method == "ListPools")
    {
        std::vector<sdbus::Struct<std::string, sdbus::ObjectPath>> pools;
        manager.callMethod(method).onInterface(interface).storeResultsTo(pools);
    }
    else if (method == "Reconcile" || method == "Forget" || method == "RemoveAutoscalePolicy" ||
             method == "RemovePool")
    {
        manager.callMethod(method).onInterface(interface).withArguments(workload);
    }
    else
    {
        throw std::invalid_argument("unknown method " + method);
    }
}

} // namespace

int main(int argc, char** argv)
{
    if (argc < 2 || argc > 3)
    {
        std::cerr << "usage: " << argv[0] << " METHOD [WORKLOAD]\n";
        return 2;
    }
    try
    {
        const auto manager = sdbus::createProxy(sdbus::createSystemBusConnection(),
                                                "io.resized1", "/io/resized1");
        call(*manager, argv[1], argc == 3 ? argv[2] : "");
        std::cout << "ok\n";
    }
    catch (const sdbus::Error& error)
    {
        std::cout << error.getName() << "\n";
    }
    catch (const std::exception& error)
    {
        std::cerr << error.what() << "\n";
        return 1;
    }
    return 0;
}
