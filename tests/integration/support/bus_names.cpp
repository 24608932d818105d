#include "support/bus_names.h"

#include "support/wait.h"

#include <sdbus-c++/sdbus-c++.h>

namespace resized::integration
{

namespace
{

constexpr auto busInterface = "org.freedesktop.DBus";

std::unique_ptr<sdbus::IProxy> busProxy(sdbus::IConnection& connection)
{
    return sdbus::createProxy(connection, busInterface, "/org/freedesktop/DBus");
}

bool nameHasOwner(sdbus::IConnection& connection, const std::string& name)
{
    bool hasOwner = false;
    busProxy(connection)
        ->callMethod("NameHasOwner")
        .onInterface(busInterface)
        .withArguments(name)
        .storeResultsTo(hasOwner);
    return hasOwner;
}

} // namespace

bool busNameHasOwner(const std::string& name)
{
    auto connection = sdbus::createSystemBusConnection();
    return nameHasOwner(*connection, name);
}

std::optional<pid_t> busNameOwnerPid(const std::string& name)
{
    auto connection = sdbus::createSystemBusConnection();
    std::uint32_t pid = 0;
    try
    {
        busProxy(*connection)
            ->callMethod("GetConnectionUnixProcessID")
            .onInterface(busInterface)
            .withArguments(name)
            .storeResultsTo(pid);
    }
    catch (const sdbus::Error& error)
    {
        if (error.getName() == "org.freedesktop.DBus.Error.NameHasNoOwner")
        {
            return std::nullopt;
        }
        throw;
    }
    return static_cast<pid_t>(pid);
}

bool waitForBusName(const std::string& name, bool owned,
                    std::chrono::milliseconds timeout)
{
    auto connection = sdbus::createSystemBusConnection();
    return waitUntil(
        [&] { return nameHasOwner(*connection, name) == owned; }, timeout);
}

} // namespace resized::integration
