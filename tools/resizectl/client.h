#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include <sdbus-c++/sdbus-c++.h>

#include "bus_target.h"
#include "dictionary.h"
#include "exit_status.h"
#include "id_prefix.h"
#include "manager_proxy.h"

namespace resized::ctl {

// What `watch` hears. The handlers run on the connection's event loop thread.
class ManagerEvents {
public:
    virtual void resourcesApplied(const std::string& workload, const Dictionary& actual) = 0;
    virtual void driftDetected(const std::string& workload, const Dictionary& desired, const Dictionary& actual) = 0;
    virtual void updateFailed(const std::string& workload, const std::string& error, const std::string& message) = 0;
    virtual void propertiesChanged(const std::string& objectPath, const Dictionary& changed,
                                   const std::vector<std::string>& invalidated) = 0;
    virtual void daemonPresenceChanged(bool present) = 0;

protected:
    ~ManagerEvents() = default;
};

// PlanFinished(plan, state, reason, message), on the event loop thread.
using PlanFinishedHandler = std::function<void(const sdbus::ObjectPath& plan, const std::string& state,
                                               const std::string& reason, const std::string& message)>;

class ManagerProxy final : public sdbus::ProxyInterfaces<io::resized1::Manager_proxy, sdbus::Properties_proxy> {
public:
    explicit ManagerProxy(sdbus::IConnection& connection);
    ~ManagerProxy();

    void setEventSink(ManagerEvents* sink) { sink_ = sink; }
    void setPlanFinishedHandler(PlanFinishedHandler handler) { planFinished_ = std::move(handler); }

private:
    void onResourcesApplied(const std::string& workload, const Dictionary& actual) override;
    void onDriftDetected(const std::string& workload, const Dictionary& desired, const Dictionary& actual) override;
    void onUpdateFailed(const std::string& workload, const std::string& error, const std::string& message) override;
    void onPlanFinished(const sdbus::ObjectPath& plan, const std::string& state, const std::string& reason,
                        const std::string& message) override;
    void onPropertiesChanged(const std::string& interfaceName, const Dictionary& changed,
                             const std::vector<std::string>& invalidated) override;

    ManagerEvents* sink_ = nullptr;
    PlanFinishedHandler planFinished_;
};

// resizectl's one connection to resized on the system bus of `target`
// (locally, DBUS_SYSTEM_BUS_ADDRESS is honoured).
class Client {
public:
    explicit Client(const BusTarget& target);
    ~Client();

    Client(const Client&) = delete;
    Client& operator=(const Client&) = delete;

    // Runs `call` on the Manager; a D-Bus error becomes a CommandError with
    // the daemon's message and the exit status for its error name.
    template <typename Call>
    auto call(Call&& call) -> std::invoke_result_t<Call, ManagerProxy&>
    {
        try {
            return call(*manager_);
        } catch (const sdbus::Error& error) {
            throw toCommandError(error);
        }
    }

    // The io.resized1.Pool properties of the object at `path`, as ListPools
    // names it; nullopt when the pool was removed since it was listed.
    std::optional<Dictionary> findPoolProperties(const sdbus::ObjectPath& path);
    // The io.resized1.Plan properties of /io/resized1/plan/ID; nullopt when
    // the daemon has no such plan.
    std::optional<Dictionary> findPlanProperties(const sdbus::ObjectPath& path);
    // Plan.Cancel(); a plan the daemon does not have is ExitStatus::NoSuchPlan.
    void cancelPlan(const sdbus::ObjectPath& path);
    // (Name, ContainerId) of every workload object, in one call of the
    // ObjectManager: the names as the daemon knows them, "" for a workload
    // without a container (a unit, a container not there now).
    std::vector<WorkloadContainer> workloadContainerIds();

    // Long enough for an update that waits for memory reclaim.
    void setMethodCallTimeout(std::chrono::microseconds timeout);

    // Delivers every signal of the daemon's objects to `sink` until stop();
    // the subscriptions are in place when this returns.
    void startEventDelivery(ManagerEvents& sink);
    // Delivers PlanFinished to `handler` until stop(). The daemon's signals
    // are matched from the start of the connection, so a plan submitted
    // after this call cannot finish unseen.
    void startPlanFinishedDelivery(PlanFinishedHandler handler);
    void stop();

private:
    static CommandError toCommandError(const sdbus::Error& error);
    // The properties of `interfaceName` on the object at `path`; nullopt
    // when there is no such object.
    std::optional<Dictionary> findProperties(const sdbus::ObjectPath& path, const std::string& interfaceName);

    std::unique_ptr<sdbus::IConnection> connection_;
    std::unique_ptr<ManagerProxy> manager_;
    std::vector<sdbus::Slot> matches_;
    bool delivering_ = false;
};

}  // namespace resized::ctl
