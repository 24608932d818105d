#include "manager_signals.h"

#include "../daemon/resized_client.h"

#include "support/wait.h"

#include <algorithm>

namespace resized::integration
{

ManagerSignals::ManagerSignals() :
    connection_(sdbus::createSystemBusConnection()),
    manager_(sdbus::createProxy(*connection_, busName, managerPath))
{
    manager_->uponSignal("ResourcesApplied")
        .onInterface(managerInterface)
        .call([this](const std::string& workload, const Dictionary& actual) {
            record({"ResourcesApplied", workload, {actual}, {}});
        });
    manager_->uponSignal("DriftDetected")
        .onInterface(managerInterface)
        .call([this](const std::string& workload, const Dictionary& desired,
                     const Dictionary& actual) {
            record({"DriftDetected", workload, {desired, actual}, {}});
        });
    manager_->uponSignal("UpdateFailed")
        .onInterface(managerInterface)
        .call([this](const std::string& workload, const std::string& error,
                     const std::string&) { record({"UpdateFailed", workload, {}, {error}}); });
    manager_->uponSignal("PropertiesChanged")
        .onInterface("org.freedesktop.DBus.Properties")
        .call([this](const std::string& interface, const Dictionary& changed,
                     const std::vector<std::string>& invalidated) {
            ManagerSignal signal{"PropertiesChanged", interface, {}, invalidated};
            for (const auto& [property, value] : changed)
            {
                signal.names.push_back(property);
            }
            record(std::move(signal));
        });
    manager_->finishRegistration();
    connection_->enterEventLoopAsync();
}

ManagerSignals::~ManagerSignals()
{
    // No handler may run while the proxy goes away.
    connection_->leaveEventLoop();
}

std::vector<ManagerSignal> ManagerSignals::received(const std::string& member,
                                                    const std::string& subject) const
{
    const std::lock_guard lock(mutex_);
    std::vector<ManagerSignal> matching;
    std::copy_if(signals_.begin(), signals_.end(), std::back_inserter(matching),
                 [&](const ManagerSignal& signal) {
                     return signal.member == member && signal.subject == subject;
                 });
    return matching;
}

std::size_t ManagerSignals::count(const std::string& member, const std::string& subject) const
{
    return received(member, subject).size();
}

bool ManagerSignals::waitForCount(const std::string& member, const std::string& subject,
                                  std::size_t count, std::chrono::milliseconds timeout) const
{
    return waitUntil([&] { return this->count(member, subject) >= count; }, timeout);
}

bool ManagerSignals::waitForPropertyChange(const std::string& property,
                                           std::chrono::milliseconds timeout) const
{
    return waitUntil(
        [&] {
            const auto changes = received("PropertiesChanged", managerInterface);
            return std::any_of(changes.begin(), changes.end(), [&](const ManagerSignal& signal) {
                return std::find(signal.names.begin(), signal.names.end(), property) !=
                       signal.names.end();
            });
        },
        timeout);
}

void ManagerSignals::record(ManagerSignal signal)
{
    const std::lock_guard lock(mutex_);
    signals_.push_back(std::move(signal));
}

} // namespace resized::integration
