#pragma once

#include <sys/types.h>

#include <chrono>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "cgroup/driver_selector.h"
#include "core/resources.h"
#include "core/workload_name.h"
#include "service/announcer.h"
#include "service/background_lookup.h"
#include "service/budget_clock.h"
#include "service/container_lifecycle.h"
#include "service/cpu_manager.h"
#include "service/deferred_queue.h"
#include "service/errors.h"
#include "service/event_loop.h"
#include "service/event_sequence.h"
#include "service/executor.h"
#include "service/hook_preparations.h"
#include "service/known_container.h"
#include "service/ledger.h"
#include "service/node.h"
#include "service/reconciler.h"
#include "service/settings.h"
#include "service/unheld_workloads.h"
#include "service/worker_thread.h"
#include "service/workloads/change.h"
#include "service/workloads/invariant_check.h"
#include "service/workloads/workload.h"
#include "service/workload_source.h"
#include "store/plan_store.h"
#include "store/state_store.h"

namespace resized::service {

// The plan, now running: admitted, reserved, its writes beginning.
using PlanStarted = std::function<void(const store::PlanRecord&)>;

// One workload of a plan as found when it was submitted.
struct PlanWorkload {
    std::string name;  // canonical
    std::string containerId;
};

// Runs a plan of changes to the end for the manager (Plans): how Force
// lowers a pod's members with the pod, all or nothing, with the caller's
// reason and Force passed on to every change. `done` has the plan as it
// ended, or the error that kept it from being one.
class PlanRunner {
public:
    virtual ~PlanRunner() = default;
    virtual void runToEnd(std::vector<store::PlanChange> changes, uint32_t callerUid,
                          core::DisruptionReason reason, bool force, Answer<store::PlanRecord> done) = 0;
};

// The node's logic behind the D-Bus API: resolves a workload through its
// source, admits a change through the ledger, records it, has the executor
// apply it and commits the outcome. Waiting requests are the
// DeferredQueue's, drift repair and retries the Reconciler's, the runtime's
// events the ContainerLifecycle's, the OCI hook's requests the
// HookPreparations', crash recovery recovery.h's. Single-threaded: every
// method runs on the event loop, and the changes of one workload run one
// after another. A method that
// names a workload asks its source first, off the loop where a
// BackgroundLookup is given, and answers through its callback, maybe later.
class ResourceManager : private ReconcilerHost, private ContainerLifecycleHost {
public:
    ResourceManager(EventLoop& loop, Settings settings, NodeInfo node, store::StateStore& store,
                    WorkloadSources sources, cgroup::DriverSelector& drivers);
    ~ResourceManager() override;

    void setObserver(ManagerObserver* observer) { announcer_.setObserver(observer); }

    // Finishes or undoes updates a crash interrupted, discovers the runtime,
    // reconciles every workload and starts the periodic sync.
    void start();

    // Every outcome, a refusal too, arrives through `done`.
    void update(const std::string& workload, core::Resources request, const UpdateOptions& options,
                uint32_t callerUid, UpdateCallback done)
    {
        update(workload, std::move(request), options, Actor::caller(callerUid), std::move(done));
    }
    // A change resized makes for itself (the autoscaler's), under the same
    // admission as a caller's.
    void update(const std::string& workload, core::Resources request, const UpdateOptions& options, Actor actor,
                UpdateCallback done);
    // The decision update() would take now.
    void validate(const std::string& workload, const core::Resources& request, Answer<Verdict> done);
    void status(const std::string& workload, UpdateCallback done);

    // The workloads a plan names, as their sources find them now, in the
    // same order; the error of the first that is none.
    void identify(const std::vector<std::string>& workloads, Answer<std::vector<PlanWorkload>> done);
    // Validates a pending plan again, admits its changes as one, applies
    // them all or none, decreases first, and records the outcome with the
    // plan's row (design.md §1b). A dry run only validates and admits.
    // `onRunning` is told when the writes begin; `done` when the plan ended,
    // or that it stays pending.
    void runPlan(store::PlanRecord plan, PlanStarted onRunning, PlanCallback done);
    // Where the plans that wait with Defer are (Plans): offered, as the
    // deferred updates are, when room may have freed.
    void setWaitingPlans(WaitingPlans* plans) { deferred_.setWaitingPlans(plans); }
    void setPlanRunner(PlanRunner* runner) { planRunner_ = runner; }
    std::vector<store::WorkloadRecord> workloads();
    // What callers asked of `workload` ("" = of every workload) and how it
    // ended, newest first, at most `limit` entries (0: all that are kept).
    // Throws ResizeError for a name of no kind of workload.
    std::vector<store::HistoryEntry> history(const std::string& workload, uint64_t limit);
    // One workload, or every one for "": answered once the pass is done.
    void reconcile(const std::string& workload, Answer<std::monostate> done);
    void forget(const std::string& workload, uint32_t callerUid, Answer<std::monostate> done);
    // Drops the change `actor` asked of `workload` that waits for capacity
    // (Defer), if it has one: who asked for it does not want it any more.
    void withdrawDeferred(const std::string& workload, const Actor& actor);
    // The OCI hook asks for the desired limits of a container being
    // created (see HookPreparations::prepare).
    void prepareContainer(const std::string& id, const std::string& name, pid_t pid, PrepareCallback done)
    {
        hooks_.prepare(id, name, pid, std::move(done));
    }

    // Where the runtime's event stream (RuntimeWatcher) reports.
    ContainerEvents& containerEvents() { return lifecycle_; }

    void resynchronise() override { resynchronise({}); }
    // A pass over every workload from a listing begun after this call;
    // `done` (if any) is called after it.
    void resynchronise(std::function<void()> done);

    // Takes new settings (SIGHUP). Paths are kept: they need a restart.
    void reload(const Settings& settings);

    core::NodeBudget budget();
    // What the pool's members hold, and the unheld workloads that name it.
    core::Amounts poolAllocated(const store::PoolRecord& pool) { return ledger_.poolBudget(pool).allocated; }
    std::vector<std::string> poolUnheld(const std::string& pool) const { return ledger_.unheldIn(pool); }
    // A pool was set or removed: what waits for capacity may fit now.
    void poolsChanged()
    {
        withdrawJoinsOfRemovedPools();
        announcer_.budgetChanged();
        deferred_.schedulePass();
        budgetClock_.rearm();
    }
    // Allocatable: the node less its system reserve. Reads nothing.
    const core::Amounts& capacity() const { return ledger_.capacity(); }
    bool runtimeConnected() const { return runtimeConnected_; }
    const NodeInfo& node() const { return node_; }
    CpuPools cpuPools() const { return cpuManager_.pools(); }
    core::AssignmentCounts cpuAssignments() const { return cpuManager_.assignmentCounts(); }
    bool slicesFromPodBubble(const std::string& workload) const { return cpuManager_.slicesFromPodBubble(workload); }

private:
    // A workload as resolved for one call: what its source says and what the
    // store remembers. At least one of the two is present.
    struct Target {
        std::string name;  // canonical
        core::WorkloadName parsed;
        std::optional<Instance> instance;
        std::optional<store::WorkloadRecord> record;

        bool hasCgroup() const { return instance && instance->hasCgroup(); }
    };

    // A request measured against the budget, the same way for validate(),
    // update(), the deferred queue and a re-admission.
    struct Assessment {
        // The request as the cgroups are to be given it (ExclusiveCpus as
        // the slice and no quota: CpuAssignment::expand).
        core::Resources request;
        // The CPUs first granted to the slice the request gives, if any.
        core::CpuSet grantedCpus;
        core::Resources baseline;  // what the cgroup holds, or will when it starts
        core::Resources desired;   // the desired state after the change
        AdmissionQuestion question;
    };

    // The workload `asked` names, as its source finds it now; with
    // TrustBinding, a running container by its binding while that is
    // current (boundTarget()).
    void resolve(const std::string& asked, Answer<Target> then, Lookup lookup = Lookup::TrustBinding);
    std::optional<Target> boundTarget(const core::WorkloadName& parsed);
    // Every workload of `names` from `found.size()` on, one after another.
    void resolveAll(std::vector<std::string> names, std::vector<Target> found, Answer<std::vector<Target>> then);
    void startPlan(store::PlanRecord plan, std::vector<Target> targets, const PlanStarted& onRunning,
                   PlanCallback done);
    // Why the plan may not run on these targets as they are now.
    std::optional<PlanOutcome> churnOf(const store::PlanRecord& plan, const std::vector<Target>& targets) const;
    // Ends a plan that could not start, recording it.
    void endPlan(store::PlanRecord& plan, const PlanOutcome& outcome, const PlanCallback& done);
    Target targetOf(const std::string& asked, const core::WorkloadName& parsed, Found found);
    // A change found the workload's container created again in another pod
    // or pool than its allocation was admitted in, before a pass did: the
    // allocation is released first, as the pass would, so that the change
    // is admitted where the container is (transition::cameBackElsewhere).
    // The change's assess() counts it unheld meanwhile; it is not placed
    // on the shared pool here, where a placement would make it busy under
    // the change about to begin.
    void releaseIfCameBackElsewhere(Target& target);
    // `record` is the workload's record with the membership it would have
    // after the change (withMembership()).
    // `sliced`: CPUs the slices of other changes not yet recorded take
    // (a plan's).
    Assessment assess(const Target& target, const store::WorkloadRecord& record,
                      const core::Resources& request, const Actor& actor, const core::CpuSet& sliced = {});
    core::AdmissionDecision decide(const Target& target, const core::Resources& request,
                                   const std::optional<std::string>& pool = std::nullopt,
                                   const Actor& actor = Actor::caller(0));
    store::WorkloadRecord statusOf(const std::string& asked, Outcome<Target> resolved);
    void forgetWhenIdle(const std::string& name, QueuedForget forget);
    void giveBackSliceThenForget(const std::string& name, QueuedForget forget);
    void forgetNow(const store::WorkloadRecord& forgotten, uint32_t callerUid, uint64_t started);
    void stopReleaseTimer(const std::string& name);
    core::Resources readActual(const std::string& cgroupPath);

    // A refusal is the caller's answer (false); a workload found is
    // admitted as admitWhenIdle() does.
    bool admitResolved(Outcome<Target> resolved, QueuedUpdate queued);
    // Starts the update at once, or after the change in flight.
    void admitWhenIdle(Target target, QueuedUpdate queued);
    // What startUpdate() throws is the caller's answer.
    void startGuarded(Target target, QueuedUpdate queued);
    void startUpdate(Target target, QueuedUpdate queued);
    void answerRefusal(const Target& target, const QueuedUpdate& queued, ErrorCode code, const std::string& reason,
                       uint64_t started);
    // Inside the admission's transaction: `joined` (the record with the
    // membership the change gives, withMembership()) saved as applying, and
    // the reservation of its part of a change set (`planId` 0: an update's).
    WorkloadChange reserve(const Target& target, const store::WorkloadRecord& before, store::WorkloadRecord joined,
                           const Assessment& assessment, const core::Amounts& reservation, int64_t planId,
                           uint64_t started);
    // Starts writing an admitted (or repairing) change set; its workloads
    // are busy until it ends.
    void beginChangeSet(std::unique_ptr<ChangeSet> set, const cgroup::ApplyOptions& options);
    void finishChangeSet(uint64_t id);
    void settle(WorkloadChange& change, bool holds, const Execution& execution, uint64_t now);
    void commitChangeSet(const ChangeSet& set, bool applied);
    // Tells whoever waits for the set how it ended, each workload's
    // observers too.
    void announceEnd(ChangeSet& set, bool applied);
    void resolveAfterStoreError(uint64_t id);
    // The workload is idle: its next queued update starts, or else the
    // newest container creation waiting for it is prepared.
    void startNextQueued(const std::string& name);
    void deferUpdate(const Target& target, store::WorkloadRecord record, const QueuedUpdate& queued,
                     const std::string& reason, uint64_t started);
    void offerDeferred(const store::DeferredUpdate& update, DeferredQueue::Next next);
    // What it recorded, if the change disrupts a pool member.
    std::optional<store::Disruption> recordDisruption(const AdmissionQuestion& question, int64_t reservationId);
    std::vector<store::PlanChange> podLoweredWithMembers(const Target& target, const Assessment& assessment,
                                                         const core::Resources& request);
    void lowerWithMembers(const std::string& name, std::vector<store::PlanChange> changes, QueuedUpdate queued);

    // ReconcilerHost
    bool busy(const std::string& name) const override { return workloads_.busy(name); }
    void lookUp(const store::WorkloadRecord& record, FoundCallback done) override;
    void repair(store::WorkloadRecord record, const core::Resources& wanted, const Actor& actor) override;
    void readmit(const store::WorkloadRecord& record, const Instance& instance) override;
    void countUnheld(const Instance& instance) override;
    core::Resources placed(const core::SliceHolder& holder, const core::Resources& desired,
                           core::Resources write) const override
    {
        return cpuManager_.placed(holder, desired, std::move(write));
    }
    void keepOnSharedPool(const Instance& instance) override { placeOnSharedPool(instance); }
    // The container on the CPU manager's shared pool as a change set of its
    // own, unless it is being changed (its change places it when it ends);
    // `placed`, if any, is called once that is done or there is nothing to do.
    void placeOnSharedPool(const Instance& instance, std::function<void()> placed = {});
    void beginPlacement(Placement placement, std::function<void()> placed);
    // The other containers known, moved with the slices `set` changes.
    void moveOthersWith(ChangeSet& set);
    void finishPlacements(uint64_t id);
    void giveBackSlicesThePolicyNoLongerGives();
    void repackSlicesOffReservedCpus();
    // A slice was given, resized or given back outside a change set that
    // moved the others with it: every other container known is placed
    // again, and the pools announced.
    void slicesChanged();
    // The workloads that asked for AllowedCpus of their own have them
    // placed with their other limits, less the slices (CpuManager::placed):
    // a change of the slices repairs each of them not being changed, as the
    // pool moved under it.
    void repairOwnCpusetsAroundSlices();
    void scheduleRelease(const store::WorkloadRecord& record) override;
    Announcer& announcer() override { return announcer_; }
    void sourceUnavailable(const std::string& why) override;

    // ContainerLifecycleHost; countUnheld() serves both hosts.
    void lookUpName(const core::WorkloadName& name, FoundCallback done) override;
    void unheldGone(const std::string& name) override;
    void runtimeLost() override { setRuntimeConnected(false); }

    void releaseIfGraceOver(const std::string& name);
    // The deferred changes that wait to join a pool removed since
    // (pool_removal.cpp).
    void withdrawJoinsOfRemovedPools();
    // A pass over every workload, listing the containers and pods on the
    // loop.
    void resynchroniseNow();
    // A pass over every workload from a listing of the containers and pods,
    // but those with events newer than the listing.
    void passOver(std::vector<Instance> listed, const std::set<std::string>& newerThanListing);
    void setRuntimeConnected(bool connected);
    void recordHistory(const std::string& workload, const Actor& actor, std::string_view operation,
                       const core::Resources& request, std::string_view result, const std::string& message,
                       uint64_t startedAtUsec);

    EventLoop& loop_;
    Settings settings_;
    NodeInfo node_;
    store::StateStore& store_;
    WorkloadSources sources_;
    cgroup::DriverSelector& drivers_;
    Ledger ledger_;
    Announcer announcer_;
    Reconciler reconciler_;
    PlanRunner* planRunner_ = nullptr;
    DeferredQueue deferred_;
    // Disruption budgets free with time: what waits for one is offered again
    // then, and AllowedDisruptions announced.
    BudgetClock budgetClock_;
    bool runtimeConnected_ = false;
    // What each workload holds between events: the change set applying to
    // it, the requests waiting for it, its removal grace.
    Workloads workloads_;
    // Passes waiting for a background listing, the one under way first, and
    // what each is to call when done.
    std::deque<std::vector<std::function<void()>>> passesAsked_;
    EventSequence events_;
    UnheldWorkloads unheld_;
    HookPreparations hooks_;
    ContainerLifecycle lifecycle_;
    // Where the executor calls systemd (SetUnitProperties), one call after
    // another, off the loop.
    WorkerThread peerCalls_;
    CpuManager cpuManager_;
    // The slices the other containers were last placed around (by
    // slicesChanged() or with a slice's change set); none before the first.
    std::optional<std::map<std::string, core::Slice>> slicesPlaced_;
    InvariantCheck invariants_;
};

}  // namespace resized::service
