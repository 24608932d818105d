#pragma once

#include <sdbus-c++/sdbus-c++.h>

#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace resized::integration
{

// A signal of /io/resized1 as received.
struct ReceivedSignal
{
    // ResourcesApplied, DriftDetected, UpdateFailed, PlanFinished,
    // InterfacesAdded, InterfacesRemoved or PropertiesChanged.
    std::string member;
    // The workload for the Manager's own signals (the plan's path for
    // PlanFinished), the object path for the ObjectManager's, the interface
    // for PropertiesChanged.
    std::string subject;
    // The interfaces added or removed, the properties changed or
    // invalidated, the error name of UpdateFailed, the state and reason of
    // PlanFinished.
    std::vector<std::string> names;
};

// Listens, on a bus connection and thread of its own, to every signal that
// resized sends from /io/resized1, from construction on.
class SignalRecorder
{
  public:
    SignalRecorder();
    SignalRecorder(const SignalRecorder&) = delete;
    SignalRecorder& operator=(const SignalRecorder&) = delete;
    ~SignalRecorder();

    // Waits until a signal member about subject has arrived, naming name
    // unless name is empty; false on timeout.
    bool waitFor(const std::string& member, const std::string& subject,
                 const std::string& name = "",
                 std::chrono::milliseconds timeout = std::chrono::seconds(30)) const;

    // Whether such a signal has arrived so far.
    bool received(const std::string& member, const std::string& subject,
                  const std::string& name = "") const;

  private:
    void record(ReceivedSignal signal);

    std::unique_ptr<sdbus::IConnection> connection_;
    std::unique_ptr<sdbus::IProxy> manager_;
    mutable std::mutex mutex_;
    std::vector<ReceivedSignal> signals_;
};

} // namespace resized::integration
