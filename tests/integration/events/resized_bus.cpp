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
    return update(workload, {
                                {"CpuMillis", sdbus::Variant(limits.cpuMillis)},
                                {"MemoryMax", sdbus::Variant(limits.memoryMax)},
                            });
}

Dictionary ResizedBus::update(const std::string& workload,
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

void ResizedBus::reconcile(const std::string& workload)
{
    manager_->callMethod("Reconcile")
        .onInterface(managerInterface)
        .withArguments(workload);
}

void ResizedBus::forget(const std::string& workload)
{
    manager_->callMethod("Forget").onInterface(managerInterface).withArguments(
        workload);
}

std::vector<std::string> ResizedBus::history(const std::string& workload)
{
    std::vector<Dictionary> entries;
    manager_->callMethod("GetHistory")
        .onInterface(managerInterface)
        .withArguments(workload, std::uint64_t{0})
        .storeResultsTo(entries);
    std::vector<std::string> lines;
    for (const auto& entry : entries)
    {
        lines.push_back(entryOf<std::string>(entry, "Actor") + " " + entryOf<std::string>(entry, "Operation") +
                        " " + entryOf<std::string>(entry, "Result"));
    }
    return lines;
}

std::string ResizedBus::metrics()
{
    std::string text;
    manager_->callMethod("GetMetrics").onInterface(managerInterface).storeResultsTo(text);
    return text;
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
    return managerNumber("CpuAllocatedMillis");
}

std::uint64_t ResizedBus::managerNumber(const std::string& name)
{
    return managerProperty(name).get<std::uint64_t>();
}

std::string ResizedBus::managerString(const std::string& name)
{
    return managerProperty(name).get<std::string>();
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

std::optional<std::string> errorOf(const std::function<void()>& call)
{
    try
    {
        call();
    }
    catch (const sdbus::Error& error)
    {
        return error.getName() + ": " + error.getMessage();
    }
    return std::nullopt;
}

} // namespace resized::integration::events
