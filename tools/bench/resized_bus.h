#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <sdbus-c++/sdbus-c++.h>

#include "core/autoscale.h"
#include "core/resources.h"

namespace resized::bench {

// How a plan ended, as PlanFinished tells it.
struct PlanEnd {
    std::string state;
    std::string reason;
    std::string message;
};

// One client of io.resized1 with a system bus connection of its own
// (DBUS_SYSTEM_BUS_ADDRESS), making plain blocking calls; one per thread.
class ResizedBus {
public:
    ResizedBus();
    ~ResizedBus();
    ResizedBus(const ResizedBus&) = delete;
    ResizedBus& operator=(const ResizedBus&) = delete;

    // UpdateResources(workload, {CpuMillis: millis}, {}); returns the
    // CpuMillis of the answer's Actual, what resized read back from the
    // cgroup after committing the change, or nullopt if the answer has none.
    std::optional<std::uint64_t> setCpuMillis(const std::string& workload, std::uint64_t millis);
    // UpdateResources(workload, request, {}); the answer's Actual.
    core::Resources update(const std::string& workload, const core::Resources& request);

    // org.freedesktop.DBus.Peer.Ping on resized's manager object: answered
    // by sd-bus itself, without any of resized's code, so the round trip
    // every call costs at the least.
    void ping();

    // Reconcile(""): one sync pass over every workload, answered when done.
    void reconcileAll();

    // SubmitPlan(changes, {}), then waits for the plan's PlanFinished and
    // returns it; throws when it does not come within timeout. The first call
    // subscribes this connection to resized's signals (before submitting, so
    // that none is missed) and reads them on a thread of its own from then
    // on, through which every later call's answer comes too: time
    // UpdateResources on a ResizedBus of its own.
    PlanEnd submitPlan(const std::vector<std::pair<std::string, core::Resources>>& changes,
                       std::chrono::milliseconds timeout);

    void setAutoscalePolicy(const std::string& workload, const core::autoscale::Policy& policy);
    void removeAutoscalePolicy(const std::string& workload);

private:
    class ManagerProxy;
    std::unique_ptr<sdbus::IConnection> connection_;
    std::unique_ptr<ManagerProxy> manager_;
    bool readingSignals_ = false;
};

// Notes the moment a bus name gets an owner from NameOwnerChanged as the bus
// sends it, so that a start-up is timed to the bus, not to a polling loop.
class BusNameWatcher {
public:
    using Clock = std::chrono::steady_clock;

    explicit BusNameWatcher(std::string name);
    ~BusNameWatcher();
    BusNameWatcher(const BusNameWatcher&) = delete;
    BusNameWatcher& operator=(const BusNameWatcher&) = delete;

    // Forgets what was seen so far.
    void reset();
    // When the name got an owner since the last reset(); throws when it did
    // not within timeout.
    Clock::time_point waitForOwner(std::chrono::milliseconds timeout);

private:
    void nameOwnerChanged(const std::string& name, const std::string& newOwner);

    std::string name_;
    std::mutex mutex_;
    std::condition_variable changed_;
    std::optional<Clock::time_point> ownedAt_;
    std::unique_ptr<sdbus::IConnection> connection_;
    std::unique_ptr<sdbus::IProxy> bus_;
};

}  // namespace resized::bench
