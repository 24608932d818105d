#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "core/workload_name.h"
#include "service/background_lookup.h"
#include "service/container_events.h"
#include "service/event_sequence.h"
#include "service/hook_preparations.h"
#include "service/reconciler.h"
#include "store/state_store.h"

namespace resized::service {

// What the container events need of the part that admits and counts.
class ContainerLifecycleHost {
public:
    virtual ~ContainerLifecycleHost() = default;
    // Asks the source of `name`; `done` is called from the loop, maybe later.
    virtual void lookUpName(const core::WorkloadName& name, FoundCallback done) = 0;
    // A container resized holds nothing for runs: it counts at what its
    // cgroup holds.
    virtual void countUnheld(const Instance& instance) = 0;
    // The container `name` stopped or went: it holds nothing unheld any more.
    virtual void unheldGone(const std::string& name) = 0;
    // Anything may have changed: a pass over every workload.
    virtual void resynchronise() = 0;
    virtual void runtimeLost() = 0;
};

// Follows the runtime's event stream: binds a managed workload to the run
// each event tells of, hands it to the reconciler, and counts the
// containers resized does not manage as they start and go.
class ContainerLifecycle : public ContainerEvents {
public:
    ContainerLifecycle(store::StateStore& store, Reconciler& reconciler, HookPreparations& hooks,
                       EventSequence& events, ContainerLifecycleHost& host);

    void containerCreated(const std::string& id, const std::string& name) override;
    void containerStarted(const std::string& id, const std::string& name) override;
    void containerPaused(const std::string& id, const std::string& name) override;
    void containerUnpaused(const std::string& id, const std::string& name) override;
    void containerStopped(const std::string& id, const std::string& name, uint64_t atUsec) override;
    void containerRemoved(const std::string& id, const std::string& name) override;
    void containerRenamed(const std::string& id, const std::string& newName) override;
    void resynchronise() override
    {
        eventsFlowing_ = true;
        host_.resynchronise();
    }
    void runtimeLost() override
    {
        eventsFlowing_ = false;
        host_.runtimeLost();
    }
    // Whether the event stream keeps the bindings current: it was
    // established and has not ended since.
    bool eventsFlowing() const { return eventsFlowing_; }

private:
    std::optional<store::WorkloadRecord> recordForEvent(const std::string& id, const std::string& name);
    void bindWithoutCgroup(const store::WorkloadRecord& record, const std::string& id);
    void countIfUnmanaged(const std::string& name);
    void containerGone(const std::string& name);
    void reconcilePods();

    store::StateStore& store_;
    Reconciler& reconciler_;
    HookPreparations& hooks_;
    EventSequence& events_;
    ContainerLifecycleHost& host_;
    bool eventsFlowing_ = false;
};

}  // namespace resized::service
