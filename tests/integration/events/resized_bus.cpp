#include "resized_bus.h"

namespace resized::integration::events
{

namespace
{

constexpr auto busName = "io.resized1";
constexpr auto managerPath = "/io/resized1";
constexpr auto managerInterface = "io.resized1.Manager";

} // namespace

ResizedBus::ResizedBus() :
    connection_(sdbus::createSystemBusConnection()),
    manager_(sdbus::createProxy(*connection_, busName, managerPath))
{}

Dictionary ResizedBus::updateResources(const std::string& workload,
                                       const Limits& limits)
{
    const Dictionary resources{
        {"CpuMillis", sdbus::Variant(limits.cpuMillis)},
        {"MemoryMax", sdbus::Variant(limits.memoryMax)},
    };
    Dictionary status;
    manager_->callMethod("UpdateResources")
        .onInterface(managerInterface)
        .withArguments(workload, resources, Dictionary{})
        .storeResultsTo(status);
    return status;
}

Dictionary ResizedBus::resourceStatus(const std::string& workload)
{
    Dictionary status;
    manager_->callMethod("GetResourceStatus")
        .onInterface(managerInterface)
        .withArguments(workload)
        .storeResultsTo(status);
    return status;
}

std::uint64_t ResizedBus::cpuAllocatedMillis()
{
    return managerProperty("CpuAllocatedMillis").get<std::uint64_t>();
}

bool ResizedBus::runtimeConnected()
{
    return managerProperty("RuntimeConnected").get<bool>();
}

sdbus::Variant ResizedBus::managerProperty(const std::string& name)
{
    return manager_->getProperty(name).onInterface(managerInterface);
}

Limits desiredOf(const Dictionary& status)
{
    const auto desired = entryOf<Dictionary>(status, "Desired");
    return {
        .cpuMillis = entryOf<std::uint64_t>(desired, "CpuMillis"),
        .memoryMax = entryOf<std::uint64_t>(desired, "MemoryMax"),
    };
}

std::optional<std::string> errorNameOf(const std::function<void()>& call)
{
    try
    {
        call();
    }
    catch (const sdbus::Error& error)
    {
        return error.getName();
    }
    return std::nullopt;
}

} // namespace resized::integration::events
