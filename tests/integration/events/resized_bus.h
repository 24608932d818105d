#pragma once

#include "container_limits.h"

#include <sdbus-c++/sdbus-c++.h>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

namespace resized::integration::events
{

// An a{sv} of the D-Bus contract (resources, options, status).
using Dictionary = std::map<std::string, sdbus::Variant>;

// The few calls of io.resized1.Manager these tests make, synchronously, on a
// bus connection of their own (DBUS_SYSTEM_BUS_ADDRESS). The connection
// outlives daemon restarts: the bus stays, only the name's owner changes.
class ResizedBus
{
  public:
    ResizedBus();

    // UpdateResources with CpuMillis and MemoryMax and no options.
    Dictionary updateResources(const std::string& workload, const Limits& limits);
    // UpdateResources with any resources and options.
    Dictionary update(const std::string& workload, const Dictionary& resources,
                      const Dictionary& options = {});
    Dictionary resourceStatus(const std::string& workload);
    // GetMetrics: the Prometheus text.
    std::string metrics();
    // Reconcile: returns once the daemon re-read the workload, so that what
    // it learnt from Podman's events before is settled too.
    void reconcile(const std::string& workload);
    void forget(const std::string& workload);
    // GetHistory: "ACTOR OPERATION RESULT" of each entry, newest first.
    std::vector<std::string> history(const std::string& workload);

    std::uint64_t cpuAllocatedMillis();
    // Any numeric property of io.resized1.Manager.
    std::uint64_t managerNumber(const std::string& name);
    // Any string property of io.resized1.Manager.
    std::string managerString(const std::string& name);
    bool runtimeConnected();

  private:
    sdbus::Variant managerProperty(const std::string& name);

    std::unique_ptr<sdbus::IConnection> connection_;
    std::unique_ptr<sdbus::IProxy> manager_;
};

// The value of key in a status dictionary; throws std::runtime_error naming
// the key when it is missing or of another type.
template <typename T>
T entryOf(const Dictionary& dictionary, const std::string& key)
{
    const auto found = dictionary.find(key);
    if (found == dictionary.end() || !found->second.containsValueOfType<T>())
    {
        throw std::runtime_error("the status has no " + key + " of type " +
                                 sdbus::signature_of<T>::str());
    }
    return found->second.get<T>();
}

// A resource dictionary asking for a CPU limit only.
inline Dictionary cpu(std::uint64_t millis)
{
    return {{"CpuMillis", sdbus::Variant(millis)}};
}

// CpuMillis and MemoryMax of the status's Desired dictionary.
Limits desiredOf(const Dictionary& status);

// The D-Bus error name call failed with; empty when it succeeded.
std::optional<std::string> errorNameOf(const std::function<void()>& call);
// "NAME: MESSAGE" of the D-Bus error call failed with; empty when it
// succeeded.
std::optional<std::string> errorOf(const std::function<void()>& call);

} // namespace resized::integration::events
