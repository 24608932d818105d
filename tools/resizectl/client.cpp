#include "client.h"

#include <map>

#include "bus_label.h"
#include "plan_proxy.h"
#include "pool_proxy.h"
#include "quantity_format.h"
#include "workload_proxy.h"

namespace resized::ctl {

namespace {

constexpr const char* kBusName = "io.resized1";
constexpr const char* kPropertiesInterface = "org.freedesktop.DBus.Properties";
constexpr const char* kObjectManagerInterface = "org.freedesktop.DBus.ObjectManager";
constexpr const char* kUnknownObject = "org.freedesktop.DBus.Error.UnknownObject";

// Workload objects come and go, so their signals are matched by path prefix
// rather than through one proxy per object.
const std::string kWorkloadPropertiesMatch =
    "type='signal',sender='io.resized1',interface='org.freedesktop.DBus.Properties',"
    "member='PropertiesChanged',path_namespace='" +
    std::string(kWorkloadPathPrefix.substr(0, kWorkloadPathPrefix.size() - 1)) + "'";

const std::string kDaemonPresenceMatch =
    "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',"
    "member='NameOwnerChanged',arg0='io.resized1'";

std::unique_ptr<sdbus::IConnection> connectTo(const BusTarget& target)
{
    switch (target.kind) {
    case BusTarget::Kind::Host:
        // ssh [USER@]HOST systemd-stdio-bridge, as sd_bus_open_system_remote().
        return sdbus::createRemoteSystemBusConnection(target.name);
    case BusTarget::Kind::Machine:
        // sdbus-c++ 1.2 cannot adopt the sd_bus of sd_bus_open_system_machine();
        // the address it would open gives the same connection.
        return sdbus::createSessionBusConnectionWithAddress(machineBusAddress(target.name));
    case BusTarget::Kind::Local:
        break;
    }
    return sdbus::createSystemBusConnection();
}

// Why the connection failed, in words: sd-bus answers a machine that is not
// running with the errno of a host that is down.
std::string connectionFailure(const BusTarget& target, const sdbus::Error& error)
{
    if (target.kind == BusTarget::Kind::Machine && error.getName() == "System.Error.EHOSTDOWN")
        return "no running container of that name is registered with systemd-machined (see machinectl list)";
    return error.getMessage();
}

}  // namespace

ManagerProxy::ManagerProxy(sdbus::IConnection& connection)
    : ProxyInterfaces(connection, kBusName, std::string(kManagerPath))
{
    registerProxy();
}

ManagerProxy::~ManagerProxy()
{
    unregisterProxy();
}

void ManagerProxy::onResourcesApplied(const std::string& workload, const Dictionary& actual)
{
    if (sink_)
        sink_->resourcesApplied(workload, actual);
}

void ManagerProxy::onDriftDetected(const std::string& workload, const Dictionary& desired, const Dictionary& actual)
{
    if (sink_)
        sink_->driftDetected(workload, desired, actual);
}

void ManagerProxy::onUpdateFailed(const std::string& workload, const std::string& error, const std::string& message)
{
    if (sink_)
        sink_->updateFailed(workload, error, message);
}

void ManagerProxy::onPlanFinished(const sdbus::ObjectPath& plan, const std::string& state, const std::string& reason,
                                  const std::string& message)
{
    if (planFinished_)
        planFinished_(plan, state, reason, message);
}

void ManagerProxy::onPropertiesChanged(const std::string& /*interfaceName*/, const Dictionary& changed,
                                       const std::vector<std::string>& invalidated)
{
    if (sink_)
        sink_->propertiesChanged(std::string(kManagerPath), changed, invalidated);
}

Client::Client(const BusTarget& target)
{
    try {
        connection_ = connectTo(target);
        manager_ = std::make_unique<ManagerProxy>(*connection_);
    } catch (const sdbus::Error& error) {
        throw CommandError(ExitStatus::Failure, "cannot connect to " + target.description() + ": " +
                                                    connectionFailure(target, error));
    }
}

Client::~Client()
{
    stop();
}

std::optional<Dictionary> Client::findProperties(const sdbus::ObjectPath& path, const std::string& interfaceName)
{
    try {
        // Pools and plans come and go; a proxy lives for the one call.
        const auto object = sdbus::createProxy(*connection_, kBusName, path);
        Dictionary properties;
        object->callMethod("GetAll")
            .onInterface(kPropertiesInterface)
            .withArguments(interfaceName)
            .storeResultsTo(properties);
        return properties;
    } catch (const sdbus::Error& error) {
        if (error.getName() == kUnknownObject)
            return std::nullopt;
        throw toCommandError(error);
    }
}

std::optional<Dictionary> Client::findPoolProperties(const sdbus::ObjectPath& path)
{
    return findProperties(path, io::resized1::Pool_proxy::INTERFACE_NAME);
}

std::optional<Dictionary> Client::findPlanProperties(const sdbus::ObjectPath& path)
{
    return findProperties(path, io::resized1::Plan_proxy::INTERFACE_NAME);
}

void Client::cancelPlan(const sdbus::ObjectPath& path)
{
    try {
        sdbus::createProxy(*connection_, kBusName, path)
            ->callMethod("Cancel")
            .onInterface(io::resized1::Plan_proxy::INTERFACE_NAME);
    } catch (const sdbus::Error& error) {
        if (error.getName() == kUnknownObject)
            throw CommandError(ExitStatus::NoSuchPlan, "no such plan: " + std::string(path));
        throw toCommandError(error);
    }
}

std::vector<WorkloadContainer> Client::workloadContainerIds()
{
    using Interfaces = std::map<std::string, Dictionary>;
    std::map<sdbus::ObjectPath, Interfaces> objects;
    try {
        sdbus::createProxy(*connection_, kBusName, std::string(kManagerPath))
            ->callMethod("GetManagedObjects")
            .onInterface(kObjectManagerInterface)
            .storeResultsTo(objects);
    } catch (const sdbus::Error& error) {
        throw toCommandError(error);
    }
    std::vector<WorkloadContainer> workloads;
    for (const auto& [path, interfaces] : objects) {
        const auto workload = interfaces.find(io::resized1::Workload_proxy::INTERFACE_NAME);
        if (workload == interfaces.end())
            continue;
        workloads.emplace_back(lookup<std::string>(workload->second, "Name"),
                               lookup<std::string>(workload->second, "ContainerId"));
    }
    return workloads;
}

void Client::setMethodCallTimeout(std::chrono::microseconds timeout)
{
    connection_->setMethodCallTimeout(timeout);
}

void Client::startEventDelivery(ManagerEvents& sink)
{
    manager_->setEventSink(&sink);
    try {
        matches_.push_back(connection_->addMatch(kWorkloadPropertiesMatch, [&sink](sdbus::Message& message) {
            std::string interfaceName;
            Dictionary changed;
            std::vector<std::string> invalidated;
            message >> interfaceName >> changed >> invalidated;
            sink.propertiesChanged(message.getPath(), changed, invalidated);
        }));
        matches_.push_back(connection_->addMatch(kDaemonPresenceMatch, [&sink](sdbus::Message& message) {
            std::string name, oldOwner, newOwner;
            message >> name >> oldOwner >> newOwner;
            sink.daemonPresenceChanged(!newOwner.empty());
        }));
    } catch (const sdbus::Error& error) {
        throw toCommandError(error);
    }
    connection_->enterEventLoopAsync();
    delivering_ = true;
}

void Client::startPlanFinishedDelivery(PlanFinishedHandler handler)
{
    manager_->setPlanFinishedHandler(std::move(handler));
    connection_->enterEventLoopAsync();
    delivering_ = true;
}

void Client::stop()
{
    if (!delivering_)
        return;
    connection_->leaveEventLoop();
    delivering_ = false;
    matches_.clear();
    manager_->setEventSink(nullptr);
    manager_->setPlanFinishedHandler(nullptr);
}

CommandError Client::toCommandError(const sdbus::Error& error)
{
    const ExitStatus status = exitStatusForBusError(error.getName());
    switch (status) {
    case ExitStatus::DaemonNotRunning:
        return CommandError(status, "resized is not running (io.resized1 has no owner on the system bus)");
    case ExitStatus::AccessDenied:
        // dbus-daemon's own refusal names its policy rule, not the reason.
        if (error.getMessage().starts_with("Rejected send message"))
            return CommandError(status, "access denied: the bus policy (io.resized1.conf) does not let "
                                        "this user change limits");
        return CommandError(status, error.getMessage());
    case ExitStatus::NotSupported:
        return CommandError(status, "not supported by this daemon version: " + error.getMessage());
    default:
        // The daemon writes sizes in the largest unit that divides them
        // ("97656250000Ki"); people read "90.9Ti".
        return CommandError(status,
                            error.getMessage().empty() ? error.getName() : readableSizes(error.getMessage()));
    }
}

}  // namespace resized::ctl
