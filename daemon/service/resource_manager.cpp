#include "service/resource_manager.h"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "core/admission.h"
#include "core/cpuset.h"
#include "core/drift.h"
#include "core/quantity.h"
#include "failpoint/failpoint.h"
#include "service/background_listing.h"
#include "service/record_transitions.h"
#include "service/recovery.h"
#include "store/json_resources.h"

namespace resized::service {
namespace {

// The error of a refused admission.
ErrorCode errorOf(core::Verdict verdict)
{
    switch (verdict) {
    case core::Verdict::Infeasible:
        return ErrorCode::Infeasible;
    case core::Verdict::BudgetExhausted:
        return ErrorCode::BudgetExhausted;
    case core::Verdict::Admitted:
    case core::Verdict::Insufficient:
        break;
    }
    return ErrorCode::InsufficientResources;
}

// The error of a plan that did not succeed, as an update would have had it.
ErrorCode errorOf(const store::PlanRecord& plan)
{
    switch (plan.reason) {
    case core::PlanReason::Infeasible:
        return ErrorCode::Infeasible;
    case core::PlanReason::Capacity:
        return ErrorCode::InsufficientResources;
    case core::PlanReason::Budget:
        return ErrorCode::BudgetExhausted;
    case core::PlanReason::Apply:
        return ErrorCode::ApplyFailed;
    case core::PlanReason::Churn:
    case core::PlanReason::None:
        break;
    }
    return ErrorCode::Failed;
}

// Which disruption budgets count a lowering: the autoscaler's own, or a
// caller's ("manual").
core::DisruptionReason disruptionReasonOf(const Actor& actor)
{
    return actor.name == Actor::autoscale().name ? core::DisruptionReason::Autoscale : core::DisruptionReason::Manual;
}

// RuntimeConnected speaks of Podman: containers and pods.
bool fromPodman(core::WorkloadKind kind) { return kind != core::WorkloadKind::Unit; }

core::WorkloadName parseWorkloadNameOrThrow(const std::string& asked)
{
    auto parsed = core::parseWorkloadName(asked);
    if (!parsed)
        throw ResizeError(ErrorCode::InvalidArgument,
                          asked.empty() ? "the workload name is empty"
                                        : "\"" + asked + "\" is not a workload name (NAME, container:NAME, "
                                                         "pod:NAME or unit:NAME)");
    return std::move(*parsed);
}

// Calls `done` with what `answer` returns, or with the error it throws, as
// the D-Bus contract names it.
template <typename Value, typename Compute>
void answerWith(const Answer<Value>& done, Compute&& answer)
{
    std::optional<Outcome<Value>> outcome;
    try {
        outcome.emplace(answer());
    } catch (const ResizeError& error) {
        outcome.emplace(error);
    } catch (const store::StoreError& error) {
        outcome.emplace(ResizeError(ErrorCode::Failed, error.what()));
    } catch (const cgroup::CgroupError& error) {
        outcome.emplace(ResizeError(ErrorCode::ApplyFailed, error.what()));
    }
    done(std::move(*outcome));
}

// The value of an outcome; its error is thrown.
template <typename Value>
Value valueOrThrow(Outcome<Value> outcome)
{
    if (auto* error = std::get_if<ResizeError>(&outcome))
        throw std::move(*error);
    return std::get<Value>(std::move(outcome));
}

void logFailedBackgroundUpdate(const std::string& name, const UpdateResult& result)
{
    if (const auto* error = std::get_if<ResizeError>(&result))
        spdlog::warn("{}: update not applied: {}", name, error->what());
}

}  // namespace

ResourceManager::ResourceManager(EventLoop& loop, Settings settings, NodeInfo node, store::StateStore& store,
                                 WorkloadSources sources, cgroup::DriverSelector& drivers)
    : loop_(loop),
      settings_(std::move(settings)),
      node_(std::move(node)),
      store_(store),
      sources_(sources),
      drivers_(drivers),
      ledger_(store_, allocatable(node_, settings_.systemReserve), node_.cpus),
      reconciler_(loop_, store_, drivers_, *this, settings_),
      deferred_(loop_, store_,
                [this](const store::DeferredUpdate& update, DeferredQueue::Next next) {
                    offerDeferred(update, std::move(next));
                }),
      budgetClock_(loop_, store_,
                   [this] {
                       announcer_.budgetChanged();
                       deferred_.schedulePass();
                   }),
      unheld_(ledger_, store_, drivers_),
      hooks_(store_, reconciler_, events_, [this](const std::string& name) { return busy(name); },
             settings_.cpuManager.policy == core::CpuManagerPolicy::Static
                 ? HookPreparations::PlaceUnmanaged([this](const Instance& instance, std::function<void()> placed) {
                       placeOnSharedPool(instance, std::move(placed));
                   })
                 : HookPreparations::PlaceUnmanaged()),
      lifecycle_(store_, reconciler_, hooks_, events_, *this),
      peerCalls_(loop_),
      cpuManager_(store_, node_.topology, settings_.cpuManager, drivers_),
      invariants_(store_, ledger_, settings_.cpuManager.reserved)
{
}

ResourceManager::~ResourceManager() = default;

void ResourceManager::start()
{
    recoverInterruptedUpdates(store_, drivers_);
    // Before the bus name is taken: no hook can be waiting yet.
    resynchroniseNow();
    reconciler_.schedulePeriodicSync([this] { resynchronise(); });
    budgetClock_.rearm();
    giveBackSlicesThePolicyNoLongerGives();
    repackSlicesOffReservedCpus();
    invariants_.check("the start-up");
}

// ReservedCpus= changed across a restart may name CPUs a slice holds: the
// slice keeps its count and its other CPUs and takes the rest outside the
// reserved ones (a growth of what is left of it), or, when the free CPUs
// cannot give that, resized does not start (design.md §1c): a slice on a
// reserved CPU breaks the promise of both.
void ResourceManager::repackSlicesOffReservedCpus()
{
    const core::CpuSet& reserved = settings_.cpuManager.reserved;
    if (cpuManager_.policy() != core::CpuManagerPolicy::Static || reserved.empty())
        return;
    for (const auto& [name, slice] : store_.heldSlices()) {
        const core::CpuSet overlap = core::intersection(slice.cpus, reserved);
        if (overlap.empty())
            continue;
        store::WorkloadRecord record = *store_.find(name);
        const core::Resources request{.exclusiveCpus = record.desired.exclusiveCpus};
        // Rolled back unless the CPU manager can give the CPUs it lacks.
        store::WriteTransaction transaction(store_.database());
        record.desired.allowedCpus = core::difference(slice.cpus, reserved);
        record.exclusiveCpusGranted = core::difference(record.exclusiveCpusGranted, reserved);
        store_.save(record);
        const auto expanded = cpuManager_.expand({name, record.kind, record.pod}, request, record.desired, {});
        if (expanded.refusal)
            throw std::runtime_error(name + "'s exclusive CPUs " + core::formatCpuSet(slice.cpus) +
                                     " hold the reserved CPUs " + core::formatCpuSet(overlap) +
                                     ", and no slice of " + std::to_string(*request.exclusiveCpus) +
                                     " can be made outside them (" + *expanded.refusal +
                                     "): restore [CpuManager] ReservedCpus= or give the slice back first");
        transaction.commit();
        spdlog::info("{}: its exclusive CPUs {} hold the reserved CPUs {}; moving it outside them", name,
                     core::formatCpuSet(slice.cpus), core::formatCpuSet(overlap));
        update(name, request, UpdateOptions{}, Actor::reconcile(),
               [holder = name](const UpdateResult& result) { logFailedBackgroundUpdate(holder, result); });
    }
}

// Switching the policy from static to none is a clean transition, not a
// refusal to start (as kubelet's is): every slice goes back to the shared
// pool, its holder keeping its other limits. So does every pod's bubble
// when the scope is no longer "pod"; its members' slices stay theirs.
void ResourceManager::giveBackSlicesThePolicyNoLongerGives()
{
    const bool staticPolicy = cpuManager_.policy() == core::CpuManagerPolicy::Static;
    if (staticPolicy && settings_.cpuManager.scope == core::TopologyScope::Pod)
        return;
    for (const auto& held : store_.heldSlices()) {
        const std::string& name = held.first;
        const bool bubble = core::parseWorkloadName(name).value_or(core::WorkloadName{}).kind ==
                            core::WorkloadKind::Pod;
        if (staticPolicy && !bubble)
            continue;
        spdlog::info("{}: {}; giving back its exclusive CPUs {}", name,
                     staticPolicy ? "the CPU manager's scope is container: pods hold no bubble"
                                  : "the CPU manager's policy is none",
                     core::formatCpuSet(held.second.cpus));
        update(name, core::Resources{.exclusiveCpus = 0}, UpdateOptions{}, Actor::reconcile(),
               [name](const UpdateResult& result) { logFailedBackgroundUpdate(name, result); });
    }
}

void ResourceManager::resolve(const std::string& asked, Answer<Target> then, Lookup lookup)
{
    core::WorkloadName parsed;
    try {
        parsed = parseWorkloadNameOrThrow(asked);
    } catch (const ResizeError& error) {
        then(error);
        return;
    }
    // Not the runtime's absence: RuntimeConnected stays as it is.
    if (!sources_.forKind(parsed.kind)) {
        then(ResizeError(ErrorCode::RuntimeUnavailable, noSourceFor(parsed.kind).what()));
        return;
    }
    if (lookup == Lookup::TrustBinding)
        if (auto target = boundTarget(parsed)) {
            then(std::move(*target));
            return;
        }
    lookUpName(parsed, [this, asked, parsed, then = std::move(then)](Found found) {
        answerWith(then, [&] { return targetOf(asked, parsed, std::move(found)); });
    });
}

// A running container resized is bound to, as the binding says, without an
// inspect per call: while Podman's events flow they keep the binding
// current, and a cgroup that is still there is still that container (its
// path names the container's ID; one created again under the name has
// another). Podman is asked when any of that is not so.
std::optional<ResourceManager::Target> ResourceManager::boundTarget(const core::WorkloadName& parsed)
{
    if (!runtimeConnected_ || !lifecycle_.eventsFlowing())
        return std::nullopt;
    auto record = store_.find(parsed.canonical());
    auto instance = record ? boundContainer(*record) : std::nullopt;
    if (!instance)
        return std::nullopt;
    try {
        if (!drivers_.forCgroup(instance->cgroupPath).exists(instance->cgroupPath))
            return std::nullopt;
    } catch (const cgroup::CgroupError&) {
        return std::nullopt;
    }
    return Target{
        .name = parsed.canonical(), .parsed = parsed, .instance = std::move(instance), .record = std::move(record)};
}

ResourceManager::Target ResourceManager::targetOf(const std::string& asked, const core::WorkloadName& parsed,
                                                  Found found)
{
    if (const auto* ambiguous = std::get_if<AmbiguousName>(&found))
        throw ResizeError(ErrorCode::NoSuchWorkload, ambiguous->what());
    if (const auto* unavailable = std::get_if<SourceUnavailable>(&found)) {
        if (fromPodman(parsed.kind))
            setRuntimeConnected(false);
        throw ResizeError(ErrorCode::RuntimeUnavailable, unavailable->what());
    }
    if (fromPodman(parsed.kind))
        setRuntimeConnected(true);
    Target target{.name = parsed.canonical(),
                  .parsed = parsed,
                  .instance = std::get<std::optional<Instance>>(std::move(found)),
                  .record = store_.find(parsed.canonical())};
    if (target.record) {
        // A known workload's name is never another container's ID prefix.
        if (target.instance && target.instance->name.canonical() != target.name)
            target.instance.reset();
    } else if (target.instance) {
        target.name = target.instance->name.canonical();
        target.parsed = target.instance->name;
        target.record = store_.find(target.name);
    }
    if (!target.instance && !target.record)
        throw ResizeError(ErrorCode::NoSuchWorkload, "no workload named \"" + asked + "\"");
    return target;
}

void ResourceManager::lookUpName(const core::WorkloadName& name, FoundCallback done)
{
    if (sources_.lookup) {
        sources_.lookup->find(name, std::move(done));
        return;
    }
    done(findIn(sources_, name));
}

core::Resources ResourceManager::readActual(const std::string& cgroupPath)
{
    return drivers_.forCgroup(cgroupPath).read(cgroupPath);
}

core::NodeBudget ResourceManager::budget()
{
    unheld_.reread();
    return ledger_.budget();
}

// The one measure of a request, for validate(), update(), the deferred
// queue and re-admissions alike, so that they can never disagree.
ResourceManager::Assessment ResourceManager::assess(const Target& target, const store::WorkloadRecord& record,
                                                    const core::Resources& request, const Actor& actor,
                                                    const core::CpuSet& sliced)
{
    Assessment assessment;
    const std::string pod = target.instance ? target.instance->pod : record.pod;
    auto expanded = cpuManager_.expand({target.name, target.parsed.kind, pod}, request, record.desired, sliced);
    assessment.request = std::move(expanded.request);
    assessment.grantedCpus = std::move(expanded.granted);
    assessment.question.infeasible = std::move(expanded.refusal);
    if (target.hasCgroup())
        assessment.baseline = readActual(target.instance->cgroupPath);
    else if (target.instance)
        assessment.baseline = target.instance->createLimits;
    else
        assessment.baseline = record.actual;
    assessment.desired = record.desired.overlaidWith(assessment.request);

    unheld_.reread();
    AdmissionQuestion& question = assessment.question;
    question.workload = target.name;
    question.kind = target.parsed.kind;
    question.pod = pod;
    if (record.holdsAllocation) {
        question.held = record.allocated;
    } else if (target.hasCgroup()) {
        // Counted in the budget at what its cgroup holds, also when no event
        // or pass has told the ledger about it yet.
        question.held = core::allocationOf(assessment.baseline);
        unheld_.count(*target.instance, question.held);
    }
    question.wanted = core::allocationOf(assessment.baseline.overlaidWith(assessment.desired));
    question.exclusiveCpus = assessment.desired.exclusiveCpus.value_or(0) > 0;
    question.disruption = core::isDisruption(assessment.baseline, assessment.baseline.overlaidWith(assessment.desired));
    question.reason = disruptionReasonOf(actor);
    question.nowUsec = nowUsec();
    question.pool = record.pool();
    // What it holds counts in its pool already: the allocation's pool, or
    // the one an unheld workload names.
    if (record.holdsAllocation)
        question.countedInPool = target.record && target.record->pool() == question.pool;
    else if (const auto unheld = ledger_.unheld(target.name))
        question.countedInPool = unheld->pool == question.pool;
    question.allowedCpus = assessment.request.allowedCpus;
    if (target.hasCgroup() && question.allowedCpus && !question.allowedCpus->empty())
        question.parentCpus = drivers_.forCgroup(target.instance->cgroupPath).parentCpus(target.instance->cgroupPath);
    return assessment;
}

void ResourceManager::update(const std::string& workload, core::Resources request, const UpdateOptions& options,
                             Actor actor, UpdateCallback done)
{
    resolve(workload, [this, queued = QueuedUpdate{std::move(request), options, std::move(actor), std::move(done)}](
                          Outcome<Target> resolved) mutable { admitResolved(std::move(resolved), std::move(queued)); });
}

bool ResourceManager::admitResolved(Outcome<Target> resolved, QueuedUpdate queued)
{
    if (const auto* error = std::get_if<ResizeError>(&resolved)) {
        queued.done(*error);
        return false;
    }
    admitWhenIdle(std::get<Target>(std::move(resolved)), std::move(queued));
    return true;
}

void ResourceManager::admitWhenIdle(Target target, QueuedUpdate queued)
{
    if (busy(target.name)) {
        workloads_[target.name].enqueue(std::move(queued));
        return;
    }
    startGuarded(std::move(target), std::move(queued));
}

void ResourceManager::startGuarded(Target target, QueuedUpdate queued)
{
    const UpdateCallback done = queued.done;
    try {
        startUpdate(std::move(target), std::move(queued));
    } catch (const store::StoreError& error) {
        done(ResizeError(ErrorCode::Failed, error.what()));
    }
}

void ResourceManager::validate(const std::string& workload, const core::Resources& request, Answer<Verdict> done)
{
    resolve(workload, [this, request, done = std::move(done)](Outcome<Target> resolved) {
        answerWith(done, [&] {
            const auto decision = decide(valueOrThrow(std::move(resolved)), request);
            return Verdict{decision.verdict == core::Verdict::Admitted, decision.reason};
        });
    });
}

core::AdmissionDecision ResourceManager::decide(const Target& target, const core::Resources& request,
                                                const std::optional<std::string>& pool, const Actor& actor)
{
    const store::WorkloadRecord record =
        transition::withMembership(target.record.value_or(store::WorkloadRecord{.name = target.name}), target.instance, pool);
    try {
        return ledger_.assess(assess(target, record, request, actor).question);
    } catch (const cgroup::CgroupError& error) {
        // Not admitted, for want of a cgroup to measure against.
        return {core::Verdict::Infeasible, {}, std::string("cannot read the workload's cgroup: ") + error.what()};
    }
}

void ResourceManager::answerRefusal(const Target& target, const QueuedUpdate& queued, ErrorCode code,
                                    const std::string& reason, uint64_t started)
{
    spdlog::warn("{}: update refused: {}", target.name, reason);
    recordHistory(target.name, queued.actor, "update", queued.request, toString(code), reason, started);
    announcer_.failed(target.name, code, reason);
    queued.done(ResizeError(code, reason));
}

void ResourceManager::releaseIfCameBackElsewhere(Target& target)
{
    if (!target.record || !target.instance || !transition::cameBackElsewhere(*target.record, *target.instance))
        return;
    store::WorkloadRecord& record = *target.record;
    const store::WorkloadRecord before = record;
    transition::bind(record, *target.instance);
    spdlog::info("{}: its container came back in pod \"{}\" and pool \"{}\", not \"{}\" and \"{}\"; "
                 "admitting its change there",
                 record.name, record.pod, record.pool(), before.pod, before.pool());
    transition::movedOut(record, before, nowUsec());
    store_.save(record);
    invariants_.check("a release");
    announcer_.changed(record);
}

void ResourceManager::startUpdate(Target target, QueuedUpdate queued)
{
    const uint64_t started = nowUsec();
    const std::string name = target.name;
    releaseIfCameBackElsewhere(target);
    store::WorkloadRecord record = target.record.value_or(
        store::WorkloadRecord{.name = name, .kind = target.parsed.kind});
    if (queued.options.pool && !queued.options.pool->empty() && !store_.findPool(*queued.options.pool)) {
        answerRefusal(target, queued, ErrorCode::NoSuchPool, "no pool is named \"" + *queued.options.pool + "\"",
                      started);
        return;
    }
    // Refused, the workload keeps the membership it had.
    const store::WorkloadRecord joined = transition::withMembership(record, target.instance, queued.options.pool);

    Assessment assessment;
    try {
        assessment = assess(target, joined, queued.request, queued.actor);
    } catch (const cgroup::CgroupError& error) {
        answerRefusal(target, queued, ErrorCode::ApplyFailed,
                      std::string("cannot read the workload's cgroup: ") + error.what(), started);
        return;
    }

    store::WriteTransaction transaction(store_.database());
    const core::AdmissionDecision decision = ledger_.assess(assessment.question);
    const bool waitable =
        decision.verdict == core::Verdict::Insufficient || decision.verdict == core::Verdict::BudgetExhausted;
    if (waitable && queued.options.defer && !queued.options.dryRun) {
        // It joins the pool when it runs, with the option kept beside it.
        deferUpdate(target, std::move(record), queued, decision.reason, started);
        transaction.commit();
        invariants_.check("a deferral");
        const auto saved = store_.find(name);
        announcer_.changed(*saved);
        queued.done(*saved);
        return;
    }
    if (decision.verdict != core::Verdict::Admitted) {
        const bool infeasible = decision.verdict == core::Verdict::Infeasible;
        // What the CPU manager refuses, lowering members would not help.
        if (infeasible && queued.options.force && !queued.options.dryRun && !assessment.question.infeasible &&
            planRunner_) {
            if (auto changes = podLoweredWithMembers(target, assessment, queued.request); !changes.empty()) {
                transaction.commit();
                lowerWithMembers(target.name, std::move(changes), std::move(queued));
                return;
            }
        }
        if (infeasible && target.record && !queued.options.dryRun) {
            transition::infeasible(record, decision.reason, started);
            store_.save(record);
            announcer_.changed(record);
        }
        transaction.commit();
        answerRefusal(target, queued, errorOf(decision.verdict), decision.reason, started);
        return;
    }
    if (queued.options.dryRun) {
        record.desired = assessment.desired;
        record.actual = assessment.baseline;
        record.message = target.hasCgroup() ? "dry run: the change would be admitted"
                                            : "dry run: the change would be admitted and applied when the "
                                              "workload starts";
        queued.done(record);
        return;
    }

    if (!target.hasCgroup()) {
        // Admitted now, held from now on, written when it runs.
        record = joined;
        record.kind = target.parsed.kind;
        if (target.instance)
            transition::bind(record, *target.instance);
        record.desired = assessment.desired;
        if (!assessment.grantedCpus.empty())
            record.exclusiveCpusGranted = assessment.grantedCpus;
        store_.removeDeferred(name);
        record.allocated = assessment.question.wanted;
        record.holdsAllocation = true;
        transition::waitingForCgroup(record, started);
        store_.save(record);
        const auto disruption = recordDisruption(assessment.question, 0);
        transaction.commit();
        invariants_.check("an admission");
        stopReleaseTimer(name);
        recordHistory(name, queued.actor, "update", queued.request, "pending", record.message, started);
        announcer_.changed(record);
        if (disruption)
            announcer_.disrupted(*disruption);
        // Held from its admission, a slice is kept free of the others from
        // then on, not from when its holder starts.
        if (assessment.request.exclusiveCpus)
            slicesChanged();
        queued.done(record);
        return;
    }

    WorkloadChange change = reserve(target, record, joined, assessment, decision.reservation, 0, started);
    transaction.commit();
    invariants_.check("an admission");
    failpoint("after-reserve");
    spdlog::info("{}: applying {} (generation {})", name, core::describe(assessment.request),
                 change.record.generation);
    announcer_.changed(change.record);

    auto set = std::make_unique<ChangeSet>();
    set->items.push_back(std::move(change));
    set->actor = queued.actor;
    set->startedAtUsec = started;
    set->answer = std::move(queued.done);
    cgroup::ApplyOptions options;
    options.force = queued.options.force;
    options.reclaimTimeout = queued.options.reclaimTimeout.value_or(settings_.defaultReclaimTimeout);
    beginChangeSet(std::move(set), options);
}

// Force on a pod lowered below its members' limits: each of those members
// lowered to the pod's new limit, then the pod; none when it is not a pod
// or no member is over the limit.
std::vector<store::PlanChange> ResourceManager::podLoweredWithMembers(const Target& target,
                                                                     const Assessment& assessment,
                                                                     const core::Resources& request)
{
    if (target.parsed.kind != core::WorkloadKind::Pod)
        return {};
    const core::Amounts& podLimit = assessment.question.wanted;
    std::vector<store::PlanChange> changes;
    for (const auto& member : ledger_.podMemberLimits(target.parsed.name)) {
        core::Resources lowered;
        if (podLimit.cpuMillis > 0 && member.limit.cpuMillis > podLimit.cpuMillis)
            lowered.cpuMillis = podLimit.cpuMillis;
        if (podLimit.memory > 0 && member.limit.memory > podLimit.memory)
            lowered.memoryMax = podLimit.memory;
        if (!lowered.empty())
            changes.push_back({member.name, lowered});
    }
    if (!changes.empty())
        changes.push_back({target.name, request});
    return changes;
}

// The plan machinery orders the members' decreases before the pod's and
// makes it all or nothing, durably: a plan of its own, in ListPlans too.
void ResourceManager::lowerWithMembers(const std::string& name, std::vector<store::PlanChange> changes,
                                       QueuedUpdate queued)
{
    spdlog::info("{}: Force: lowering {} member(s) over its new limit with it, as one plan", name,
                 changes.size() - 1);
    planRunner_->runToEnd(
        std::move(changes), queued.actor.uid, disruptionReasonOf(queued.actor), queued.options.force,
        [this, name, done = std::move(queued.done)](Outcome<store::PlanRecord> ran) {
            answerWith(done, [&] {
                const store::PlanRecord plan = valueOrThrow(std::move(ran));
                if (plan.state != core::PlanState::Succeeded)
                    throw ResizeError(errorOf(plan), "plan " + std::to_string(plan.id) + ", which Force made: " +
                                                         plan.message);
                auto record = store_.find(name);
                if (!record)
                    throw ResizeError(ErrorCode::NoSuchWorkload, "no workload named \"" + name + "\"");
                return std::move(*record);
            });
        });
}

// Inside the admission's transaction: a restart must not reset a budget.
std::optional<store::Disruption> ResourceManager::recordDisruption(const AdmissionQuestion& question,
                                                                   int64_t reservationId)
{
    if (!question.disruption || question.pool.empty() || !store_.findPool(question.pool))
        return std::nullopt;
    store::Disruption disruption{
        .pool = question.pool,
        .workload = question.workload,
        .reason = question.reason,
        .atUsec = question.nowUsec,
        .reservationId = reservationId,
    };
    store_.recordDisruption(disruption);
    budgetClock_.rearm();
    return disruption;
}

void ResourceManager::startNextQueued(const std::string& name)
{
    if (busy(name))
        return;
    Workload* workload = workloads_.find(name);
    std::optional<QueuedRequest> next = workload ? workload->dequeue() : std::nullopt;
    if (workload)
        workloads_.release(name);
    if (!next) {
        hooks_.workloadIdle(name);
        return;
    }
    if (auto* forget = std::get_if<QueuedForget>(&*next)) {
        forgetWhenIdle(name, std::move(*forget));
        return;
    }
    // Asked again: the container may have been restarted or replaced while
    // the workload was busy.
    resolve(name, [this, name, next = std::get<QueuedUpdate>(std::move(*next))](Outcome<Target> resolved) mutable {
        if (!admitResolved(std::move(resolved), std::move(next)))
            startNextQueued(name);
    });
}

void ResourceManager::stopReleaseTimer(const std::string& name)
{
    if (Workload* workload = workloads_.find(name)) {
        workload->clearReleaseTimer();
        workloads_.release(name);
    }
}

void ResourceManager::status(const std::string& workload, UpdateCallback done)
{
    resolve(workload, [this, workload, done = std::move(done)](Outcome<Target> resolved) {
        answerWith(done, [&] { return statusOf(workload, std::move(resolved)); });
    });
}

store::WorkloadRecord ResourceManager::statusOf(const std::string& asked, Outcome<Target> resolved)
{
    if (const auto* error = std::get_if<ResizeError>(&resolved)) {
        // The store alone answers while the runtime is away.
        const auto parsed = core::parseWorkloadName(asked);
        if (error->code() == ErrorCode::RuntimeUnavailable && parsed)
            if (auto record = store_.find(parsed->canonical()))
                return *record;
        throw *error;
    }
    const Target& target = std::get<Target>(resolved);
    store::WorkloadRecord record = target.record.value_or(
        store::WorkloadRecord{.name = target.name, .kind = target.parsed.kind});
    if (target.instance)
        transition::bind(record, *target.instance);
    else if (target.record && !target.record->containerId.empty())
        // Its source does not know it any more: gone, whatever the store
        // last saw of it.
        transition::gone(record);
    if (target.hasCgroup()) {
        auto& backend = drivers_.forCgroup(record.cgroupPath);
        record.driver = std::string(backend.driverName());
        try {
            transition::observed(record, backend.read(record.cgroupPath));
            // What is read now is the truth: a change behind resized's back
            // is drift from this answer on, not from the next pass.
            if (record.syncState == core::SyncState::Synchronized && !busy(record.name) &&
                !core::matches(cgroup::asBackendReads(backend, record.cgroupPath, record.desired), record.actual))
                record.syncState = core::SyncState::DriftDetected;
        } catch (const cgroup::CgroupError& error) {
            spdlog::warn("{}: cannot read its cgroup: {}", record.name, error.what());
        }
    }
    return record;
}

std::vector<store::WorkloadRecord> ResourceManager::workloads() { return store_.workloads(); }

std::vector<store::HistoryEntry> ResourceManager::history(const std::string& workload, uint64_t limit)
{
    const std::string name = workload.empty() ? std::string() : parseWorkloadNameOrThrow(workload).canonical();
    return store_.history(name, limit == 0 ? store::kMaxHistoryLimit : static_cast<size_t>(limit));
}

void ResourceManager::reconcile(const std::string& workload, Answer<std::monostate> done)
{
    if (workload.empty()) {
        resynchronise([done] { done(std::monostate{}); });
        return;
    }
    auto reconcileFound = [this, workload, done = std::move(done)](Outcome<Target> resolved) {
        answerWith(done, [&] {
            const Target target = valueOrThrow(std::move(resolved));
            if (!target.record)
                throw ResizeError(ErrorCode::NoSuchWorkload, "resized does not manage \"" + workload + "\"");
            // Found just now: the source need not be asked again.
            const Instance none{};
            reconciler_.reconcileOne(target.name, target.instance ? &*target.instance : &none);
            return std::monostate{};
        });
    };
    // What is there now, whatever resized was told.
    resolve(workload, std::move(reconcileFound), Lookup::AskSource);
}

void ResourceManager::forget(const std::string& workload, uint32_t callerUid, Answer<std::monostate> done)
{
    const uint64_t started = nowUsec();
    resolve(workload, [this, workload, callerUid, started, done = std::move(done)](Outcome<Target> resolved) {
        const auto* target = std::get_if<Target>(&resolved);
        if (const auto* error = std::get_if<ResizeError>(&resolved);
            error && error->code() != ErrorCode::RuntimeUnavailable) {
            done(*error);
            return;
        }
        const auto parsed = core::parseWorkloadName(workload);
        const std::string name = target ? target->name : parsed ? parsed->canonical() : workload;
        forgetWhenIdle(name, QueuedForget{.callerUid = callerUid, .startedAtUsec = started, .done = done});
    });
}

// A change in flight, the workload's own or a plan's, ends first: it was
// admitted for a workload resized manages, and commits as one.
void ResourceManager::forgetWhenIdle(const std::string& name, QueuedForget forget)
{
    if (busy(name)) {
        workloads_[name].enqueue(std::move(forget));
        return;
    }
    std::optional<store::WorkloadRecord> forgotten;
    try {
        forgotten = store_.find(name);
        if (!forgotten)
            throw ResizeError(ErrorCode::NoSuchWorkload, "resized does not manage \"" + name + "\"");
        if (!forgotten->holdsAllocation || forgotten->desired.exclusiveCpus.value_or(0) == 0 ||
            forgotten->cgroupPath.empty()) {
            forgetNow(*forgotten, forget.callerUid, forget.startedAtUsec);
            forget.done(std::monostate{});
            return;
        }
    } catch (const ResizeError& error) {
        forget.done(error);
        return;
    } catch (const store::StoreError& error) {
        forget.done(ResizeError(ErrorCode::Failed, error.what()));
        return;
    }
    giveBackSliceThenForget(name, std::move(forget));
}

// A slice or a bubble goes back before its holder is forgotten: its CPUs
// must not be free while the holder's cgroup (and a pod's members) still
// run on them. Nothing is forgotten when that change fails.
void ResourceManager::giveBackSliceThenForget(const std::string& name, QueuedForget forget)
{
    spdlog::info("{}: giving back its exclusive CPUs before it is forgotten", name);
    update(name, core::Resources{.exclusiveCpus = 0}, UpdateOptions{}, Actor::caller(forget.callerUid),
           [this, name, forget = std::move(forget)](UpdateResult result) mutable {
               if (const auto* error = std::get_if<ResizeError>(&result)) {
                   forget.done(ResizeError(error->code(), "its exclusive CPUs could not be given back first: " +
                                                              std::string(error->what())));
                   return;
               }
               forgetWhenIdle(name, std::move(forget));
           });
}

void ResourceManager::forgetNow(const store::WorkloadRecord& forgotten, uint32_t callerUid, uint64_t started)
{
    const std::string& name = forgotten.name;
    store_.remove(name);
    stopReleaseTimer(name);
    // From now on it counts as any container resized does not manage: at
    // what its cgroup holds, which are the limits resized left there.
    const Instance left{
        .name = core::parseWorkloadName(name).value_or(core::WorkloadName{forgotten.kind, name}),
        .id = forgotten.containerId,
        .pod = forgotten.pod,
        .state = forgotten.runState,
        .cgroupPath = forgotten.cgroupPath,
        .createLimits = {},
        .poolLabel = forgotten.poolLabel,
    };
    if (left.hasCgroup())
        countUnheld(left);
    deferred_.schedulePass();
    invariants_.check("a Forget");
    spdlog::info("{}: forgotten; its limits stay as they are", name);
    recordHistory(name, Actor::caller(callerUid), "forget", {}, "success", "", started);
    announcer_.forgotten(name);
    if (forgotten.holdsAllocation && forgotten.desired.exclusiveCpus.value_or(0) > 0)
        slicesChanged();
}

void ResourceManager::withdrawDeferred(const std::string& workload, const Actor& actor)
{
    store::WriteTransaction transaction(store_.database());
    if (!store_.removeDeferred(workload, actor.name))
        return;
    auto record = store_.find(workload);
    if (record && record->updateState == core::UpdateState::Deferred) {
        transition::withdrawn(*record, actor.name, nowUsec());
        store_.save(*record);
    }
    transaction.commit();
    spdlog::info("{}: the change {} deferred is withdrawn", workload, actor.name);
    if (record)
        announcer_.changed(*record);
}

// Called inside the admission transaction. The request waits in the store,
// not in the desired state, so nothing acts on it before it is admitted.
void ResourceManager::deferUpdate(const Target& target, store::WorkloadRecord record, const QueuedUpdate& queued,
                                  const std::string& reason, uint64_t started)
{
    if (target.instance && !target.record) {
        transition::bind(record, *target.instance);
        if (target.hasCgroup())
            record.driver = std::string(drivers_.forCgroup(record.cgroupPath).driverName());
    }
    transition::deferred(record, reason, started);
    store_.save(record);
    store_.deferUpdate({
        .workload = target.name,
        .request = queued.request,
        .force = queued.options.force,
        .reclaimTimeoutUsec = queued.options.reclaimTimeout
                                  ? std::optional<uint64_t>(queued.options.reclaimTimeout->count())
                                  : std::nullopt,
        .callerUid = queued.actor.uid,
        .createdAtUsec = started,
        .actor = queued.actor.name,
        .pool = queued.options.pool,
    });
    spdlog::info("{}: deferred {}: {}", target.name, core::describe(queued.request), reason);
    recordHistory(target.name, queued.actor, "update", queued.request, "deferred", record.message, started);
}

// One request of the deferred queue, offered again: started if it fits now.
void ResourceManager::offerDeferred(const store::DeferredUpdate& update, DeferredQueue::Next next)
{
    using OfferOutcome = DeferredQueue::OfferOutcome;
    if (busy(update.workload)) {
        next(OfferOutcome::NotStarted);
        return;
    }
    resolve(update.workload, [this, update, next = std::move(next)](Outcome<Target> resolved) {
        const Actor actor{update.actor, update.callerUid};
        OfferOutcome outcome = OfferOutcome::NotStarted;
        try {
            if (const auto* error = std::get_if<ResizeError>(&resolved)) {
                if (error->code() == ErrorCode::RuntimeUnavailable)
                    outcome = OfferOutcome::StopPass;
                else
                    store_.removeDeferred(update.workload);
            } else if (Target& target = std::get<Target>(resolved);
                       !busy(target.name) && deferred_.offeringInTurn()) {
                const auto decision = decide(target, update.request, update.pool, actor);
                if (decision.verdict == core::Verdict::Admitted) {
                    UpdateOptions options;
                    options.force = update.force;
                    options.pool = update.pool;
                    if (update.reclaimTimeoutUsec)
                        options.reclaimTimeout = std::chrono::microseconds(*update.reclaimTimeoutUsec);
                    const std::string name = target.name;
                    spdlog::info("{}: capacity freed, applying the deferred {}", name,
                                 core::describe(update.request));
                    startGuarded(std::move(target), QueuedUpdate{update.request, options, actor,
                                                           [name](const UpdateResult& result) {
                                                               logFailedBackgroundUpdate(name, result);
                                                           }});
                    outcome = OfferOutcome::Started;
                }
            }
        } catch (const std::exception& error) {
            // The store's passing trouble, typically; the pass goes on
            // either way, or no later one would ever run.
            spdlog::error("{}: cannot offer its deferred update: {}", update.workload, error.what());
        }
        next(outcome);
    });
}

void ResourceManager::lookUp(const store::WorkloadRecord& record, FoundCallback done)
{
    const auto parsed = core::parseWorkloadName(record.name);
    lookUpName(parsed.value_or(core::WorkloadName{record.kind, record.name}),
               [this, kind = record.kind, name = record.name, done = std::move(done)](Found found) {
                   auto* instance = std::get_if<std::optional<Instance>>(&found);
                   if (instance && fromPodman(kind))
                       setRuntimeConnected(true);
                   // A known workload's name is never another container's ID prefix.
                   if (instance && *instance && (*instance)->name.canonical() != name)
                       instance->reset();
                   done(std::move(found));
               });
}

void ResourceManager::repair(store::WorkloadRecord record, const core::Resources& wanted, const Actor& actor)
{
    record.syncState = core::SyncState::Applying;
    const core::Resources previousDesired = record.desired;
    const std::optional<std::string> previousPoolOption = record.poolOption;
    const std::string previousPoolLabel = record.poolLabel;
    const core::Amounts allocation = record.allocated;
    auto set = std::make_unique<ChangeSet>();
    set->items.push_back({.record = std::move(record),
                          .request = wanted,
                          .previousDesired = previousDesired,
                          .previousPoolOption = previousPoolOption,
                          .previousPoolLabel = previousPoolLabel,
                          .targetAllocation = allocation,
                          .previousActual = {},
                          .reservationId = std::nullopt,
                          .disruption = std::nullopt});
    set->actor = actor;
    set->startedAtUsec = nowUsec();
    cgroup::ApplyOptions options;
    options.reclaimTimeout = settings_.defaultReclaimTimeout;
    beginChangeSet(std::move(set), options);
}

// The desired state outlived its allocation (the removal grace passed); a
// container of that name is back and its desired state is admitted like a
// new request. It waits as deferred when it does not fit.
void ResourceManager::readmit(const store::WorkloadRecord& record, const Instance& instance)
{
    const std::string name = record.name;
    UpdateOptions options;
    options.defer = true;
    spdlog::info("{}: back after its allocation was released; admitting {}", name, core::describe(record.desired));
    admitWhenIdle(Target{.name = name, .parsed = instance.name, .instance = instance, .record = record},
                  QueuedUpdate{record.desired, options, Actor::reconcile(),
                         [name](const UpdateResult& result) { logFailedBackgroundUpdate(name, result); }});
}

void ResourceManager::scheduleRelease(const store::WorkloadRecord& record)
{
    const uint64_t graceEnds =
        record.removedAtUsec + static_cast<uint64_t>(settings_.removedGrace.count()) * 1000;
    const uint64_t now = nowUsec();
    const std::string name = record.name;
    if (now >= graceEnds) {
        releaseIfGraceOver(name);
        return;
    }
    Workload& workload = workloads_[name];
    if (!workload.releaseTimerSet())
        workload.setReleaseTimer(
            loop_.after(std::chrono::microseconds(graceEnds - now), [this, name] { releaseIfGraceOver(name); }));
}

void ResourceManager::releaseIfGraceOver(const std::string& name)
{
    stopReleaseTimer(name);
    auto record = store_.find(name);
    if (!record || !record->holdsAllocation || record->runState != core::RunState::Removed || busy(name))
        return;
    transition::allocationReleased(*record, nowUsec());
    store_.save(*record);
    invariants_.check("a release");
    spdlog::info("{}: removed {} ms ago; its allocation is released", name, settings_.removedGrace.count());
    announcer_.changed(*record);
    deferred_.schedulePass();
    if (record->desired.exclusiveCpus.value_or(0) > 0)
        slicesChanged();
}

void ResourceManager::sourceUnavailable(const std::string& why)
{
    spdlog::warn("cannot reconcile: {}", why);
    setRuntimeConnected(false);
}

void ResourceManager::countUnheld(const Instance& instance)
{
    placeOnSharedPool(instance);
    if (unheld_.count(instance))
        announcer_.budgetChanged();
}

void ResourceManager::unheldGone(const std::string& name)
{
    if (unheld_.drop(name)) {
        announcer_.budgetChanged();
        deferred_.schedulePass();
    }
}

void ResourceManager::slicesChanged()
{
    if (cpuManager_.policy() != core::CpuManagerPolicy::Static)
        return;
    announcer_.budgetChanged();
    // A slice grown at its admission is where the pass then placed the
    // others off it: its change's end moves nobody.
    auto slices = cpuManager_.slicesInForce();
    if (slices == slicesPlaced_)
        return;
    slicesPlaced_ = std::move(slices);
    for (Placement& placement : cpuManager_.placementsOfKnown())
        if (!busy(placement.workload))
            beginPlacement(std::move(placement), {});
    repairOwnCpusetsAroundSlices();
}

void ResourceManager::repairOwnCpusetsAroundSlices()
{
    // A slice's holder has its slice, which no other slice moves.
    const auto placedAroundSlices = [](const store::WorkloadRecord& record) {
        return record.holdsAllocation && record.desired.allowedCpus && record.desired.exclusiveCpus.value_or(0) == 0 &&
               record.hasCgroup();
    };
    for (const auto& record : store_.workloads())
        if (placedAroundSlices(record) && !busy(record.name))
            reconciler_.reconcileOne(record.name, nullptr, Lookup::TrustBinding);
}

void ResourceManager::resynchronise(std::function<void()> done)
{
    if (!sources_.podmanListing) {
        resynchroniseNow();
        if (done)
            done();
        return;
    }
    // One pass that waits for the listing after the one under way is
    // enough: that listing begins after this request too.
    constexpr size_t kUnderWayAndNext = 2;
    if (passesAsked_.size() == kUnderWayAndNext) {
        if (done)
            passesAsked_.back().push_back(std::move(done));
        return;
    }
    passesAsked_.emplace_back();
    if (done)
        passesAsked_.back().push_back(std::move(done));
    sources_.podmanListing->list([this, listedAfter = events_.last()](BackgroundListing::Result result) {
        // Listings end in the order they were asked for.
        const std::vector<std::function<void()>> callers = std::move(passesAsked_.front());
        passesAsked_.pop_front();
        if (const auto* unavailable = std::get_if<SourceUnavailable>(&result)) {
            sourceUnavailable(unavailable->what());
        } else {
            passOver(std::move(std::get<std::vector<Instance>>(result)), events_.takeNewerThan(listedAfter));
        }
        for (const auto& caller : callers)
            caller();
    });
}

void ResourceManager::resynchroniseNow()
{
    std::vector<Instance> listed;
    try {
        listed = listAll({sources_.containers, sources_.pods});
    } catch (const SourceUnavailable& error) {
        sourceUnavailable(error.what());
        return;
    }
    passOver(std::move(listed), {});
}

void ResourceManager::passOver(std::vector<Instance> listed, const std::set<std::string>& newerThanListing)
{
    setRuntimeConnected(true);
    // Every container listed: a cgroup read is never stale.
    std::vector<Placement> placements = cpuManager_.placementsOf(listed, newerThanListing);
    std::erase_if(listed, [&](const Instance& instance) {
        return newerThanListing.contains(instance.name.canonical());
    });
    if (unheld_.replace(listed, newerThanListing))
        announcer_.budgetChanged();
    reconciler_.reconcileAll(listed, newerThanListing);
    // After the repairs the pass began: a workload being repaired is placed
    // when its repair ends.
    for (Placement& placement : placements)
        if (!busy(placement.workload))
            beginPlacement(std::move(placement), {});
    deferred_.schedulePass();
}

void ResourceManager::reload(const Settings& settings)
{
    if (settings.stateDir != settings_.stateDir || settings.podmanSocket != settings_.podmanSocket ||
        settings.cgroupRoot != settings_.cgroupRoot)
        spdlog::warn("changed paths take effect only when resized restarts");
    // The slices held were chosen under the settings read at start-up,
    // and the OCI hook places containers by them: as kubelet's CPU manager,
    // it changes them only across a restart, which checks the slices held.
    if (settings.cpuManager != settings_.cpuManager)
        spdlog::warn("changes to [CpuManager] take effect only when resized restarts");
    Settings kept = settings;
    kept.stateDir = settings_.stateDir;
    kept.podmanSocket = settings_.podmanSocket;
    kept.cgroupRoot = settings_.cgroupRoot;
    kept.cpuManager = settings_.cpuManager;
    settings_ = std::move(kept);
    ledger_.setCapacity(allocatable(node_, settings_.systemReserve));
    reconciler_.setSettings(settings_);
    announcer_.budgetChanged();
    reconciler_.schedulePeriodicSync([this] { resynchronise(); });
    deferred_.schedulePass();
}

void ResourceManager::setRuntimeConnected(bool connected)
{
    if (connected == runtimeConnected_)
        return;
    runtimeConnected_ = connected;
    if (connected)
        spdlog::info("connected to Podman");
    else
        spdlog::warn("lost Podman");
    announcer_.runtimeConnection(connected);
}

void ResourceManager::recordHistory(const std::string& workload, const Actor& actor, std::string_view operation,
                                    const core::Resources& request, std::string_view result,
                                    const std::string& message, uint64_t startedAtUsec)
{
    try {
        store_.recordHistory({
            .workload = workload,
            .actor = actor.name,
            .callerUid = actor.uid,
            .operation = std::string(operation),
            .request = store::toJson(request),
            .result = std::string(result),
            .message = message,
            .startedAtUsec = startedAtUsec,
            .finishedAtUsec = nowUsec(),
        });
    } catch (const store::StoreError& error) {
        spdlog::error("{}: cannot record history: {}", workload, error.what());
    }
}

}  // namespace resized::service
