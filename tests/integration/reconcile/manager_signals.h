#pragma once

#include "../daemon/resource_values.h"

#include <sdbus-c++/sdbus-c++.h>

#include <chrono>
#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace resized::integration
{

// A signal of io.resized1.Manager, or a PropertiesChanged of the manager
// object, with what it carried.
struct ManagerSignal
{
    // ResourcesApplied, DriftDetected, UpdateFailed or PropertiesChanged.
    std::string member;
    // The workload; the interface for PropertiesChanged.
    std::string subject;
    // ResourcesApplied: actual; DriftDetected: desired and actual.
    std::vector<Dictionary> resources;
    // UpdateFailed: the error name; PropertiesChanged: the properties.
    std::vector<std::string> names;
};

// Listens, on a bus connection and thread of its own, to the manager's
// signals from construction on, keeping every one so that tests can count
// them and look at their arguments.
class ManagerSignals
{
  public:
    ManagerSignals();
    ManagerSignals(const ManagerSignals&) = delete;
    ManagerSignals& operator=(const ManagerSignals&) = delete;
    ~ManagerSignals();

    std::vector<ManagerSignal> received(const std::string& member,
                                        const std::string& subject) const;
    std::size_t count(const std::string& member, const std::string& subject) const;
    // Waits until at least `count` such signals have arrived; false on
    // timeout.
    bool waitForCount(const std::string& member, const std::string& subject,
                      std::size_t count, std::chrono::milliseconds timeout) const;
    // Waits for a PropertiesChanged of io.resized1.Manager naming property.
    bool waitForPropertyChange(const std::string& property,
                               std::chrono::milliseconds timeout) const;

  private:
    void record(ManagerSignal signal);

    std::unique_ptr<sdbus::IConnection> connection_;
    std::unique_ptr<sdbus::IProxy> manager_;
    mutable std::mutex mutex_;
    std::vector<ManagerSignal> signals_;
};

} // namespace resized::integration
