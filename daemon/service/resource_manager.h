#pragma once

#include <chrono>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "cgroup/applier.h"
#include "cgroup/driver_selector.h"
#include "cgroup/limits_backend.h"
#include "core/admission.h"
#include "core/resources.h"
#include "runtime/podman_client.h"
#include "service/container_events.h"
#include "service/errors.h"
#include "service/event_loop.h"
#include "service/node.h"
#include "service/settings.h"
#include "store/state_store.h"

namespace resized::service {

struct UpdateOptions {
    bool dryRun = false;
    bool force = false;
    bool defer = false;
    std::optional<std::chrono::microseconds> reclaimTimeout;
};

// What the bus layer is told; every call comes from the event loop.
class ManagerObserver {
public:
    virtual ~ManagerObserver() = default;
    virtual void workloadChanged(const store::WorkloadRecord& record) = 0;
    virtual void workloadForgotten(const std::string& name) = 0;
    virtual void budgetChanged() = 0;
    virtual void runtimeConnectionChanged(bool connected) = 0;
    virtual void resourcesApplied(const std::string& name, const core::Resources& actual) = 0;
    virtual void driftDetected(const std::string& name, const core::Resources& desired,
                               const core::Resources& actual) = 0;
    virtual void updateFailed(const std::string& name, ErrorCode code, const std::string& message) = 0;
};

using UpdateResult = std::variant<store::WorkloadRecord, ResizeError>;
using UpdateCallback = std::function<void(UpdateResult)>;

// The resource manager and node agent of design.md: admits, records,
// applies, verifies and keeps workloads' limits. Single-threaded: every
// method runs on the event loop; an update that waits for memory reclaim
// continues from a timer, and updates of one workload run one after another.
class ResourceManager : public ContainerEvents {
public:
    ResourceManager(EventLoop& loop, Settings settings, NodeInfo node, store::StateStore& store,
                    runtime::PodmanClient& podman, cgroup::DriverSelector& drivers);
    ~ResourceManager();

    void setObserver(ManagerObserver* observer) { observer_ = observer; }

    // Finishes or undoes updates a crash interrupted, discovers the runtime,
    // reconciles every workload and starts the periodic sync.
    void start();

    // Throws ResizeError for errors found before anything is changed; later
    // outcomes arrive through `done`.
    void update(const std::string& workload, core::Resources request, const UpdateOptions& options,
                uint32_t callerUid, UpdateCallback done);
    // (allowed, reason); throws ResizeError for an unknown workload.
    std::pair<bool, std::string> validate(const std::string& workload, core::Resources request);
    store::WorkloadRecord status(const std::string& workload);
    std::vector<store::WorkloadRecord> workloads();
    void reconcile(const std::string& workload);
    void forget(const std::string& workload, uint32_t callerUid);

    // ContainerEvents, from the runtime's event stream (RuntimeWatcher).
    void containerCreated(const std::string& name) override;
    void containerStarted(const std::string& name) override;
    void containerPaused(const std::string& name) override;
    void containerUnpaused(const std::string& name) override;
    void containerStopped(const std::string& name) override;
    void containerRemoved(const std::string& name) override;
    void containerRenamed(const std::string& id, const std::string& newName) override;
    // Re-reads every container and reconciles every workload.
    void resynchronise() override;
    void runtimeLost() override { setRuntimeConnected(false); }

    // Takes new settings (SIGHUP). Paths are kept: they need a restart.
    void reload(const Settings& settings);

    core::NodeBudget budget();
    bool runtimeConnected() const { return runtimeConnected_; }
    const NodeInfo& node() const { return node_; }

private:
    // A workload as resolved for one call: what Podman says and what the
    // store remembers. At least one of the two is present.
    struct Target {
        std::string name;
        std::optional<runtime::Container> container;
        std::optional<store::WorkloadRecord> record;

        bool running() const { return container && container->running && !container->cgroupPath.empty(); }
    };

    // One update being applied. A repair (reconciliation) has no reservation
    // and nobody waiting for the answer.
    struct InFlight {
        store::WorkloadRecord record;
        core::Resources request;
        core::Resources previousDesired;
        core::Amounts targetAllocation;
        std::optional<int64_t> reservationId;
        cgroup::ApplyTransaction apply;
        UpdateCallback done;
        uint32_t callerUid = 0;
        uint64_t startedAtUsec = 0;
        EventSource timer;
    };
    struct Queued {
        core::Resources request;
        UpdateOptions options;
        uint32_t callerUid;
        UpdateCallback done;
    };

    // Podman's view of the workload, or nullopt when it has no such container.
    std::optional<runtime::Container> inspect(const std::string& workload);
    Target resolve(const std::string& workload);
    core::Amounts unmanagedAllocation(const std::string& except);
    void refreshUnmanaged();

    void startUpdate(Target target, Queued queued);
    void continueUpdate(const std::string& name);
    void finishUpdate(const std::string& name);
    void startNextQueued(const std::string& name);

    void deferUpdate(const Target& target, store::WorkloadRecord record,
                     const core::Resources& previousDesired, const Queued& queued,
                     const std::string& reason, uint64_t started);
    void scheduleDeferredPass();
    void scheduleRetry(const std::string& name, bool repaired);
    void runDeferredPass();

    void recoverInterruptedUpdates();
    void restoreBlocking(const std::string& cgroupPath, const core::Resources& limits);
    // All containers by name, from one listing: a pass over every workload
    // asks Podman once rather than once per workload.
    using Listing = std::map<std::string, runtime::ListEntry, std::less<>>;
    void reconcileOne(const std::string& name, const Listing* listing = nullptr);
    void reconcileOneNow(const std::string& name, const Listing* listing);
    std::optional<runtime::Container> containerOf(const store::WorkloadRecord& record,
                                                  const Listing* listing);
    void schedulePeriodicSync();
    core::Resources readActual(const std::string& cgroupPath);
    static store::WorkloadRecord newRecord(const std::string& name);
    static core::Resources touchedBy(const core::Resources& request);
    void notifyChanged(const store::WorkloadRecord& record);
    void setRuntimeConnected(bool connected);
    void recordHistory(const std::string& workload, uint32_t callerUid, std::string_view operation,
                       const core::Resources& request, std::string_view result,
                       const std::string& message, uint64_t startedAtUsec);

    EventLoop& loop_;
    Settings settings_;
    NodeInfo node_;
    store::StateStore& store_;
    runtime::PodmanClient& podman_;
    cgroup::DriverSelector& drivers_;
    ManagerObserver* observer_ = nullptr;
    core::Amounts capacity_;
    bool runtimeConnected_ = false;
    // Create-time allocation of running containers resized does not manage,
    // by container name.
    std::map<std::string, core::Amounts> unmanaged_;
    std::map<std::string, std::unique_ptr<InFlight>> inFlight_;
    std::map<std::string, std::deque<Queued>> waiting_;
    EventSource syncTimer_;
    EventSource deferredPass_;
    struct Retry {
        unsigned attempts = 0;
        EventSource timer;
    };
    std::map<std::string, Retry> retries_;
    struct StoreRetry {
        unsigned failures = 0;
        EventSource timer;
    };
    std::map<std::string, StoreRetry> storeRetries_;
};

uint64_t nowUsec();

}  // namespace resized::service
