#include "resized_bus.h"

#include <map>
#include <stdexcept>

#include "dbus_codec/autoscale_policy.h"
#include "dbus_codec/resource_dictionary.h"
#include "manager_proxy.h"

namespace resized::bench {

namespace {

using dbus_codec::Dictionary;

constexpr const char* kBusName = "io.resized1";
constexpr const char* kManagerPath = "/io/resized1";
constexpr const char* kBusDriver = "org.freedesktop.DBus";

}  // namespace

// The proxy glue generated from the interface XML. registerProxy() waits
// for the first plan: without its match rules the bus sends this connection
// none of resized's signals, which a client that never reads them would
// otherwise pile up with every call.
class ResizedBus::ManagerProxy final : public sdbus::ProxyInterfaces<io::resized1::Manager_proxy> {
public:
    explicit ManagerProxy(sdbus::IConnection& connection)
        : ProxyInterfaces(connection, kBusName, kManagerPath)
    {
    }

    ~ManagerProxy()
    {
        if (subscribed_)
            unregisterProxy();
    }

    // Adds the match rules, answered by the bus before this returns; the
    // signals come through the connection's event loop from then on.
    void subscribe()
    {
        registerProxy();
        subscribed_ = true;
    }

    void ping() { getProxy().callMethod("Ping").onInterface("org.freedesktop.DBus.Peer"); }

    PlanEnd waitForPlan(const sdbus::ObjectPath& plan, std::chrono::milliseconds timeout)
    {
        std::unique_lock lock(mutex_);
        if (!planFinished_.wait_for(lock, timeout, [&] { return planEnds_.contains(plan); }))
            throw std::runtime_error("no PlanFinished for " + plan + " on the bus");
        return planEnds_.extract(plan).mapped();
    }

private:
    void onResourcesApplied(const std::string&, const Dictionary&) override {}
    void onDriftDetected(const std::string&, const Dictionary&, const Dictionary&) override {}
    void onUpdateFailed(const std::string&, const std::string&, const std::string&) override {}
    // Kept by the plan's path: it may come before SubmitPlan's answer does.
    void onPlanFinished(const sdbus::ObjectPath& plan, const std::string& state, const std::string& reason,
                        const std::string& message) override
    {
        {
            std::lock_guard lock(mutex_);
            planEnds_.insert_or_assign(plan, PlanEnd{state, reason, message});
        }
        planFinished_.notify_all();
    }

    bool subscribed_ = false;
    std::mutex mutex_;
    std::condition_variable planFinished_;
    std::map<std::string, PlanEnd> planEnds_;
};

ResizedBus::ResizedBus()
    : connection_(sdbus::createSystemBusConnection()),
      manager_(std::make_unique<ManagerProxy>(*connection_))
{
}

ResizedBus::~ResizedBus()
{
    if (readingSignals_)
        connection_->leaveEventLoop();
}

std::optional<std::uint64_t> ResizedBus::setCpuMillis(const std::string& workload, std::uint64_t millis)
{
    return update(workload, {.cpuMillis = millis}).cpuMillis;
}

core::Resources ResizedBus::update(const std::string& workload, const core::Resources& request)
{
    const Dictionary status = manager_->UpdateResources(workload, dbus_codec::encodeResources(request), {});
    const auto actual = status.find("Actual");
    if (actual == status.end())
        return {};
    return dbus_codec::decodeReportedResources(actual->second.get<Dictionary>());
}

void ResizedBus::setAutoscalePolicy(const std::string& workload, const core::autoscale::Policy& policy)
{
    manager_->SetAutoscalePolicy(workload, dbus_codec::encodeAutoscalePolicy(policy));
}

void ResizedBus::removeAutoscalePolicy(const std::string& workload) { manager_->RemoveAutoscalePolicy(workload); }

void ResizedBus::ping()
{
    manager_->ping();
}

void ResizedBus::reconcileAll()
{
    manager_->Reconcile("");
}

PlanEnd ResizedBus::submitPlan(const std::vector<std::pair<std::string, core::Resources>>& changes,
                               std::chrono::milliseconds timeout)
{
    if (!readingSignals_) {
        manager_->subscribe();
        connection_->enterEventLoopAsync();
        readingSignals_ = true;
    }
    std::vector<sdbus::Struct<std::string, Dictionary>> encoded;
    for (const auto& [workload, resources] : changes)
        encoded.emplace_back(workload, dbus_codec::encodeResources(resources));
    return manager_->waitForPlan(manager_->SubmitPlan(encoded, {}), timeout);
}

BusNameWatcher::BusNameWatcher(std::string name)
    : name_(std::move(name)),
      connection_(sdbus::createSystemBusConnection()),
      bus_(sdbus::createProxy(*connection_, kBusDriver, "/org/freedesktop/DBus"))
{
    bus_->uponSignal("NameOwnerChanged")
        .onInterface(kBusDriver)
        .call([this](const std::string& changedName, const std::string&, const std::string& newOwner) {
            nameOwnerChanged(changedName, newOwner);
        });
    bus_->finishRegistration();
    connection_->enterEventLoopAsync();
}

BusNameWatcher::~BusNameWatcher()
{
    connection_->leaveEventLoop();
}

void BusNameWatcher::nameOwnerChanged(const std::string& name, const std::string& newOwner)
{
    if (name != name_ || newOwner.empty())
        return;
    const auto now = Clock::now();
    {
        std::lock_guard lock(mutex_);
        ownedAt_ = now;
    }
    changed_.notify_all();
}

void BusNameWatcher::reset()
{
    std::lock_guard lock(mutex_);
    ownedAt_.reset();
}

BusNameWatcher::Clock::time_point BusNameWatcher::waitForOwner(std::chrono::milliseconds timeout)
{
    std::unique_lock lock(mutex_);
    if (!changed_.wait_for(lock, timeout, [this] { return ownedAt_.has_value(); }))
        throw std::runtime_error("no owner for " + name_ + " on the bus");
    return *ownedAt_;
}

}  // namespace resized::bench
