#include "signal_recorder.h"

#include "resized_client.h"
#include "support/wait.h"

#include <algorithm>

namespace resized::integration
{

namespace
{

constexpr auto objectManagerInterface = "org.freedesktop.DBus.ObjectManager";

std::vector<std::string> keysOf(const std::map<std::string, sdbus::Variant>& map)
{
    std::vector<std::string> keys;
    for (const auto& [key, value] : map)
    {
        keys.push_back(key);
    }
    return keys;
}

} // namespace

SignalRecorder::SignalRecorder() :
    connection_(sdbus::createSystemBusConnection()),
    manager_(sdbus::createProxy(*connection_, busName, managerPath))
{
    manager_->uponSignal("ResourcesApplied")
        .onInterface(managerInterface)
        .call([this](const std::string& workload, const Dictionary&) {
            record({"ResourcesApplied", workload, {}});
        });
    manager_->uponSignal("DriftDetected")
        .onInterface(managerInterface)
        .call([this](const std::string& workload, const Dictionary&, const Dictionary&) {
            record({"DriftDetected", workload, {}});
        });
    manager_->uponSignal("UpdateFailed")
        .onInterface(managerInterface)
        .call([this](const std::string& workload, const std::string& error,
                     const std::string&) {
            record({"UpdateFailed", workload, {error}});
        });
    manager_->uponSignal("PlanFinished")
        .onInterface(managerInterface)
        .call([this](const sdbus::ObjectPath& plan, const std::string& state, const std::string& reason,
                     const std::string&) {
            record({"PlanFinished", plan, {state, reason}});
        });
    manager_->uponSignal("InterfacesAdded")
        .onInterface(objectManagerInterface)
        .call([this](const sdbus::ObjectPath& path,
                     const std::map<std::string, Dictionary>& interfaces) {
            std::vector<std::string> names;
            for (const auto& [interface, properties] : interfaces)
            {
                names.push_back(interface);
            }
            record({"InterfacesAdded", path, names});
        });
    manager_->uponSignal("InterfacesRemoved")
        .onInterface(objectManagerInterface)
        .call([this](const sdbus::ObjectPath& path,
                     const std::vector<std::string>& interfaces) {
            record({"InterfacesRemoved", path, interfaces});
        });
    manager_->uponSignal("PropertiesChanged")
        .onInterface("org.freedesktop.DBus.Properties")
        .call([this](const std::string& interface, const Dictionary& changed,
                     const std::vector<std::string>& invalidated) {
            auto names = keysOf(changed);
            names.insert(names.end(), invalidated.begin(), invalidated.end());
            record({"PropertiesChanged", interface, names});
        });
    manager_->finishRegistration();
    connection_->enterEventLoopAsync();
}

SignalRecorder::~SignalRecorder()
{
    // No handler may run while the proxy goes away.
    connection_->leaveEventLoop();
}

bool SignalRecorder::received(const std::string& member, const std::string& subject,
                              const std::string& name) const
{
    const std::lock_guard lock(mutex_);
    return std::any_of(signals_.begin(), signals_.end(), [&](const ReceivedSignal& signal) {
        return signal.member == member && signal.subject == subject &&
               (name.empty() || std::find(signal.names.begin(), signal.names.end(),
                                          name) != signal.names.end());
    });
}

bool SignalRecorder::waitFor(const std::string& member, const std::string& subject,
                             const std::string& name,
                             std::chrono::milliseconds timeout) const
{
    return waitUntil([&] { return received(member, subject, name); }, timeout);
}

void SignalRecorder::record(ReceivedSignal signal)
{
    const std::lock_guard lock(mutex_);
    signals_.push_back(std::move(signal));
}

} // namespace resized::integration
