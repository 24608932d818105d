#include "service/plans.h"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "core/workload_name.h"

namespace resized::service {
namespace {

// A plan that waits for a workload busy with a change of its own is run
// again soon; one the store could not read, a little later.
constexpr std::chrono::milliseconds kBusyRetry{20};
constexpr std::chrono::seconds kStoreRetry{1};
constexpr std::chrono::minutes kPruneInterval{10};
constexpr std::chrono::microseconds kAccuracy{100};

ResizeError invalid(const std::string& message) { return ResizeError(ErrorCode::InvalidArgument, message); }

void checkRequest(const PlanRequest& request)
{
    if (request.changes.empty())
        throw invalid("a plan needs at least one change");
    if (request.changes.size() > Plans::kMaxChanges)
        throw invalid("a plan has at most " + std::to_string(Plans::kMaxChanges) + " changes, not " +
                      std::to_string(request.changes.size()));
    for (const auto& change : request.changes)
        if (change.resources.empty())
            throw invalid("the change of \"" + change.workload + "\" sets no resource");
    if (request.delay > Plans::kMaxDelay)
        throw invalid("DelayUSec is longer than a week");
}

}  // namespace

Plans::Plans(EventLoop& loop, store::StateStore& store, ResourceManager& manager)
    : loop_(loop), plans_(store.database()), manager_(manager)
{
    manager_.setWaitingPlans(this);
    manager_.setPlanRunner(this);
}

Plans::~Plans()
{
    manager_.setPlanRunner(nullptr);
    manager_.setWaitingPlans(nullptr);
}

void Plans::runToEnd(std::vector<store::PlanChange> changes, uint32_t callerUid, core::DisruptionReason reason,
                     bool force, Answer<store::PlanRecord> done)
{
    PlanRequest request;
    request.changes = std::move(changes);
    request.reason = reason;
    request.force = force;
    // The plan runs from a timer, after this answer.
    submit(std::move(request), callerUid,
           [this, done = std::move(done)](Outcome<store::PlanRecord> submitted) {
               if (const auto* error = std::get_if<ResizeError>(&submitted)) {
                   done(*error);
                   return;
               }
               awaited_.emplace(std::get<store::PlanRecord>(submitted).id, done);
           });
}

void Plans::finished(const store::PlanRecord& plan)
{
    if (observer_)
        observer_->planFinished(plan);
    if (auto awaited = awaited_.extract(plan.id))
        awaited.mapped()(plan);
}

void Plans::start()
{
    prune();
    for (const auto& plan : plans_.plans())
        if (plan.state == core::PlanState::Pending)
            schedule(plan);
}

void Plans::submit(PlanRequest request, uint32_t callerUid, Answer<store::PlanRecord> done)
{
    try {
        checkRequest(request);
    } catch (const ResizeError& error) {
        done(error);
        return;
    }
    std::vector<std::string> names;
    for (const auto& change : request.changes)
        names.push_back(change.workload);
    manager_.identify(names, [this, request = std::move(request), callerUid,
                              done = std::move(done)](Outcome<std::vector<PlanWorkload>> identified) {
        if (const auto* error = std::get_if<ResizeError>(&identified)) {
            done(*error);
            return;
        }
        try {
            store::PlanRecord plan = accept(request, callerUid, std::get<std::vector<PlanWorkload>>(identified));
            schedule(plan);
            if (observer_)
                observer_->planSubmitted(plan);
            done(std::move(plan));
        } catch (const ResizeError& error) {
            done(error);
        } catch (const store::StoreError& error) {
            done(ResizeError(ErrorCode::Failed, error.what()));
        }
    });
}

store::PlanRecord Plans::accept(const PlanRequest& request, uint32_t callerUid,
                                const std::vector<PlanWorkload>& workloads)
{
    store::PlanRecord plan;
    plan.state = core::PlanState::Pending;
    plan.disruptionReason = request.reason;
    plan.dryRun = request.dryRun;
    plan.defer = request.defer;
    plan.force = request.force;
    plan.callerUid = callerUid;
    plan.submittedAtUsec = nowUsec();
    plan.runAtUsec = plan.submittedAtUsec + (request.dryRun ? 0 : static_cast<uint64_t>(request.delay.count()));
    // The spellings that name each workload: as asked, and canonical.
    std::map<std::string, std::string> canonicalOf;
    for (size_t index = 0; index < workloads.size(); ++index) {
        const PlanWorkload& workload = workloads[index];
        if (plan.containers.contains(workload.name))
            throw invalid("the plan changes \"" + workload.name + "\" more than once");
        plan.containers.emplace(workload.name, workload.containerId);
        plan.changes.push_back({workload.name, request.changes[index].resources});
        canonicalOf.emplace(request.changes[index].workload, workload.name);
        canonicalOf.emplace(workload.name, workload.name);
    }
    for (const auto& [asked, generation] : request.expectedGenerations) {
        auto named = canonicalOf.find(asked);
        if (named == canonicalOf.end())
            if (const auto parsed = core::parseWorkloadName(asked))
                named = canonicalOf.find(parsed->canonical());
        if (named == canonicalOf.end())
            throw invalid("ExpectedGenerations names \"" + asked + "\", which the plan does not change");
        plan.expectedGenerations[named->second] = generation;
    }
    plan.id = plans_.add(plan);
    spdlog::info("plan {}: submitted, {} change(s){}", plan.id, plan.changes.size(),
                 plan.dryRun ? ", a dry run" : "");
    return plan;
}

void Plans::schedule(const store::PlanRecord& plan)
{
    const uint64_t now = nowUsec();
    runAfter(plan.id, std::chrono::microseconds(plan.runAtUsec > now ? plan.runAtUsec - now : 0));
}

// A deadline of its own: sd-event's default accuracy would let a plan
// without delay wait up to a quarter of a second.
void Plans::runAfter(int64_t id, std::chrono::microseconds delay)
{
    timers_[id] = loop_.at(std::chrono::steady_clock::now() + delay, kAccuracy, [this, id] { run(id); });
}

void Plans::run(int64_t id, DeferredQueue::Next offered)
{
    using OfferOutcome = DeferredQueue::OfferOutcome;
    const auto notStarted = [&offered] {
        if (offered)
            offered(OfferOutcome::NotStarted);
    };
    if (running_.contains(id)) {
        notStarted();
        return;
    }
    timers_.erase(id);
    std::optional<store::PlanRecord> plan;
    try {
        plan = plans_.find(id);
    } catch (const store::StoreError& error) {
        spdlog::error("plan {}: cannot read it: {}; trying again", id, error.what());
        runAfter(id, kStoreRetry);
        notStarted();
        return;
    }
    if (!plan || plan->state != core::PlanState::Pending) {
        waiting_.erase(id);
        notStarted();
        return;
    }
    running_.insert(id);
    auto started = std::make_shared<bool>(false);
    manager_.runPlan(
        std::move(*plan),
        [this, started](const store::PlanRecord& running) {
            *started = true;
            if (observer_)
                observer_->planRunning(running);
        },
        [this, id, started, offered = std::move(offered)](const PlanOutcome& outcome) {
            ran(id, outcome);
            if (offered)
                offered(*started ? OfferOutcome::Started : OfferOutcome::NotStarted);
        });
}

void Plans::ran(int64_t id, const PlanOutcome& outcome)
{
    running_.erase(id);
    if (outcome.state == core::PlanState::Pending) {
        if (outcome.reason == core::PlanReason::None)
            runAfter(id, kBusyRetry);
        else
            waiting_.insert(id);
        return;
    }
    waiting_.erase(id);
    spdlog::info("plan {}: {}{}: {}", id, core::toString(outcome.state),
                 outcome.reason == core::PlanReason::None ? "" : " (" + std::string(core::toString(outcome.reason)) + ")",
                 outcome.message);
    std::optional<store::PlanRecord> plan;
    try {
        plan = plans_.find(id);
    } catch (const store::StoreError& error) {
        spdlog::error("plan {}: cannot read it to announce its end: {}", id, error.what());
    }
    if (!plan)
        plan = store::PlanRecord{.id = id};
    if (!plan->finished()) {
        // The manager's outcome, when the store could not take it.
        plan->state = outcome.state;
        plan->reason = outcome.reason;
        plan->message = outcome.message;
        plan->finishedAtUsec = nowUsec();
    }
    finished(*plan);
}

void Plans::cancel(int64_t id)
{
    store::PlanRecord plan = find(id);
    if (running_.contains(id) || plan.state == core::PlanState::Running)
        throw invalid("plan " + std::to_string(id) + " is running and can no longer be cancelled");
    if (plan.finished())
        throw invalid("plan " + std::to_string(id) + " has already finished (" +
                      std::string(core::toString(plan.state)) + ")");
    plan.state = core::PlanState::Cancelled;
    plan.finishedAtUsec = nowUsec();
    plan.message = "cancelled before it ran";
    plans_.save(plan);
    timers_.erase(id);
    waiting_.erase(id);
    spdlog::info("plan {}: cancelled", id);
    finished(plan);
}

store::PlanRecord Plans::find(int64_t id)
{
    auto plan = plans_.find(id);
    if (!plan)
        throw ResizeError(ErrorCode::NoSuchPlan, "no plan has the id " + std::to_string(id));
    return std::move(*plan);
}

std::vector<store::PlanRecord> Plans::list() { return plans_.plans(); }

std::vector<store::PlanRecord> Plans::waitingPlans()
{
    std::vector<store::PlanRecord> plans;
    for (const int64_t id : waiting_)
        if (auto plan = plans_.find(id); plan && plan->state == core::PlanState::Pending)
            plans.push_back(std::move(*plan));
    return plans;
}

void Plans::prune()
{
    pruneTimer_ = loop_.after(kPruneInterval, [this] { prune(); });
    const uint64_t keptUsec = std::chrono::duration_cast<std::chrono::microseconds>(kFinishedKept).count();
    const uint64_t now = nowUsec();
    try {
        for (const int64_t id : plans_.removeFinishedBefore(now > keptUsec ? now - keptUsec : 0))
            if (observer_)
                observer_->planRemoved(id);
    } catch (const store::StoreError& error) {
        spdlog::warn("cannot forget finished plans: {}", error.what());
    }
}

}  // namespace resized::service
