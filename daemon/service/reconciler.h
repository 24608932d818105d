#pragma once

#include <chrono>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "cgroup/driver_selector.h"
#include "core/backoff.h"
#include "service/actor.h"
#include "service/announcer.h"
#include "service/background_lookup.h"
#include "service/event_loop.h"
#include "service/known_container.h"
#include "service/settings.h"
#include "service/workload_source.h"
#include "store/state_store.h"

namespace resized::service {

// What the reconciler asks of the part that runs changes.
class ReconcilerHost {
public:
    virtual ~ReconcilerHost() = default;
    // A change of this workload is in flight: leave it alone.
    virtual bool busy(const std::string& name) const = 0;
    // Asks the record's source for its instance; `done` is called from the
    // loop, maybe later.
    virtual void lookUp(const store::WorkloadRecord& record, FoundCallback done) = 0;
    // Writes `wanted` into the record's cgroup (no admission: the record
    // holds its allocation) and reports through repairFinished().
    virtual void repair(store::WorkloadRecord record, const core::Resources& wanted, const Actor& actor) = 0;
    // Admits the record's desired state again (its allocation was released)
    // for its instance, which runs.
    virtual void readmit(const store::WorkloadRecord& record, const Instance& instance) = 0;
    // A workload with a cgroup and no allocation held: counted at what its
    // cgroup holds.
    virtual void countUnheld(const Instance& instance) = 0;
    // `write` for `holder` that will have `desired`, its cpuset placed by
    // the CPU manager (CpuManager::placed).
    virtual core::Resources placed(const core::SliceHolder& holder, const core::Resources& desired,
                                   core::Resources write) const = 0;
    // A container whose cpuset the CPU manager keeps on the shared pool.
    virtual void keepOnSharedPool(const Instance& instance) = 0;
    // The record's container is gone: release its allocation after the grace.
    virtual void scheduleRelease(const store::WorkloadRecord& record) = 0;
    virtual Announcer& announcer() = 0;
    virtual void sourceUnavailable(const std::string& why) = 0;
};

// Brings the store and the cgroups back into agreement: binds each workload
// to its current container, follows its run state, repairs drift between
// what was last written and what the cgroup holds, and tries failed repairs
// again. Triggered by events, Reconcile, systemd's reloads and a periodic
// pass.
class Reconciler {
public:
    Reconciler(EventLoop& loop, store::StateStore& store, cgroup::DriverSelector& drivers,
               ReconcilerHost& host, const Settings& settings);

    // Every workload, from one listing of the containers, but those in
    // `newerThanListing`: their events since the listing began have seen to
    // them, and the listing may show a run that has ended.
    void reconcileAll(const std::vector<Instance>& containers, const std::set<std::string>& newerThanListing);
    // One workload; a store that cannot be written now is tried again later.
    // Without `listed` or a trusted binding, its source is asked first, and
    // the workload reconciled when it answers.
    // A repair it starts is `actor`'s in the history.
    void reconcileOne(const std::string& name, const Instance* listed = nullptr, Lookup lookup = Lookup::AskSource,
                      const Actor& actor = Actor::reconcile());
    // A repair ended: a failed one is tried again, doubling the interval, up
    // to the configured number of attempts.
    void repairFinished(const std::string& name, bool repaired);

    // Calls `pass` every sync interval.
    void schedulePeriodicSync(std::function<void()> pass);
    void setSettings(const Settings& settings) { settings_ = settings; }

private:
    void reconcileNow(const std::string& name, const Instance* listed, Lookup lookup, const Actor& actor);
    void lookUpAndReconcile(const store::WorkloadRecord& record);
    void reconcileFound(const std::string& name, Found found);
    void armSyncTimer();

    EventLoop& loop_;
    store::StateStore& store_;
    cgroup::DriverSelector& drivers_;
    ReconcilerHost& host_;
    Settings settings_;
    struct Retry {
        core::Backoff backoff;
        EventSource timer;
    };
    Retry& retryOf(std::map<std::string, Retry>& retries, const std::string& name,
                   std::chrono::milliseconds longest);
    // Retries trust the binding: the runtime may hold the container locked
    // for a restart whose OCI hook waits on resized.
    std::chrono::milliseconds scheduleRetry(Retry& retry, const std::string& name);
    std::map<std::string, Retry> repairRetries_;
    std::map<std::string, Retry> storeRetries_;
    // Workloads whose source is being asked; true when asked again since:
    // the answer under way may predate what made them ask.
    std::map<std::string, bool> lookingUp_;
    EventSource syncTimer_;
    std::function<void()> periodicPass_;
};

// The backoff of retries that start at `[Sync] RetryIntervalSec=` (at least
// a millisecond: 0 would never back off) and stop growing at `longest`.
core::Backoff retryBackoff(std::chrono::milliseconds interval, std::chrono::milliseconds longest);

uint64_t nowUsec();

}  // namespace resized::service
