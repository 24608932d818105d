#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "service/event_loop.h"
#include "service/resource_manager.h"
#include "store/plan_store.h"

namespace resized::service {

// What SubmitPlan asks (design.md §1b).
struct PlanRequest {
    std::vector<store::PlanChange> changes;
    bool dryRun = false;
    std::chrono::microseconds delay{0};
    core::DisruptionReason reason = core::DisruptionReason::Plan;
    // By the workload's name as the caller spells it.
    std::map<std::string, uint64_t> expectedGenerations;
    bool defer = false;
    // Only for the plans resized submits itself (Force on a pod): the D-Bus
    // contract gives a plan no Force of its own.
    bool force = false;
};

// Who shows the plans (the bus): each is announced when submitted, when it
// finishes, and when it is forgotten.
class PlanObserver {
public:
    virtual ~PlanObserver() = default;
    virtual void planSubmitted(const store::PlanRecord& plan) = 0;
    virtual void planRunning(const store::PlanRecord& plan) = 0;
    virtual void planFinished(const store::PlanRecord& plan) = 0;
    virtual void planRemoved(int64_t id) = 0;
};

// The plans' life, as systemd's jobs have one: submitted and kept in the
// store, run when their delay is over (by the ResourceManager, which
// validates, admits and applies them), cancelled while pending, forgotten
// some time after they finished. Pending plans are scheduled again after a
// restart; recovery has already resolved the ones a crash interrupted. A
// plan that waits with Defer for room is the deferred queue's to offer.
class Plans final : private WaitingPlans, private PlanRunner {
public:
    // A plan's object stays at least this long after it finished.
    static constexpr std::chrono::hours kFinishedKept{1};
    // The most changes one plan may have.
    static constexpr size_t kMaxChanges = 256;
    // The longest delay: a week.
    static constexpr std::chrono::hours kMaxDelay{24 * 7};

    Plans(EventLoop& loop, store::StateStore& store, ResourceManager& manager);
    ~Plans() override;
    Plans(const Plans&) = delete;
    Plans& operator=(const Plans&) = delete;

    void setObserver(PlanObserver* observer) { observer_ = observer; }
    // Schedules the pending plans the store keeps.
    void start();

    // Answers the new plan, pending, or the error of a request that cannot
    // be one (InvalidArgument, NoSuchWorkload, RuntimeUnavailable).
    void submit(PlanRequest request, uint32_t callerUid, Answer<store::PlanRecord> done);
    // Throws ResizeError: NoSuchPlan, or InvalidArgument for a plan that is
    // no longer pending.
    void cancel(int64_t id);
    // Throws ResizeError(NoSuchPlan).
    store::PlanRecord find(int64_t id);
    std::vector<store::PlanRecord> list();

private:
    store::PlanRecord accept(const PlanRequest& request, uint32_t callerUid,
                             const std::vector<PlanWorkload>& workloads);
    void schedule(const store::PlanRecord& plan);
    void runAfter(int64_t id, std::chrono::microseconds delay);
    // `offered` (if any) is told whether the plan started.
    void run(int64_t id, DeferredQueue::Next offered = {});
    void ran(int64_t id, const PlanOutcome& outcome);

    // Tells whoever awaits the plan (runToEnd) how it ended.
    void finished(const store::PlanRecord& plan);

    // PlanRunner
    void runToEnd(std::vector<store::PlanChange> changes, uint32_t callerUid, core::DisruptionReason reason,
                  bool force, Answer<store::PlanRecord> done) override;

    // WaitingPlans
    std::vector<store::PlanRecord> waitingPlans() override;
    void offerPlan(int64_t id, DeferredQueue::Next next) override { run(id, std::move(next)); }
    void prune();

    EventLoop& loop_;
    store::PlanStore plans_;
    ResourceManager& manager_;
    PlanObserver* observer_ = nullptr;
    std::map<int64_t, EventSource> timers_;
    // Handed to the manager, which has not answered yet.
    std::set<int64_t> running_;
    // Pending with Defer until capacity or a budget frees.
    std::set<int64_t> waiting_;
    // Plans the manager runs (runToEnd), with who awaits their end.
    std::map<int64_t, Answer<store::PlanRecord>> awaited_;
    EventSource pruneTimer_;
};

}  // namespace resized::service
