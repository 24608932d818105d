#include "service/autoscaler.h"

#include <sys/epoll.h>

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>

#include "cgroup/detect.h"
#include "core/disruption.h"
#include "service/reconciler.h"

namespace resized::service {

namespace autoscale = core::autoscale;

namespace {

constexpr std::string_view kCpu = "cpu";
constexpr std::string_view kMemory = "memory";
constexpr std::chrono::seconds kWriteInterval{1};
// How long the limits a workload's source reported serve, for a workload
// resized does not manage yet.
constexpr std::chrono::seconds kResolveAgain{10};
// A sample may come this share of its interval late: the slack lets one
// wake-up of the loop sample every workload that is due by then.
constexpr int kIntervalSlackDivisor = 10;
// At some tens of microseconds a sample, a batch holds the loop for about a
// millisecond; D-Bus calls are served between batches.
constexpr std::size_t kSamplesPerBatch = 64;

autoscale::Micros now() { return autoscale::Micros(nowUsec()); }

// One interval after the last sample was due, so that late wake-ups do not
// stretch the period. A new policy, or one behind by more than an interval
// (the loop was busy), starts from now rather than catching up in a burst.
std::chrono::steady_clock::time_point nextDue(std::optional<std::chrono::steady_clock::time_point> lastDue,
                                              std::chrono::microseconds interval)
{
    const auto now = std::chrono::steady_clock::now();
    const auto period = std::chrono::duration_cast<std::chrono::steady_clock::duration>(interval);
    if (!lastDue || *lastDue + period < now)
        return now + period;
    return *lastDue + period;
}

// The policy's bounds within what the node can give at all: a value the
// admission would call infeasible is never asked for.
autoscale::Target withinNode(autoscale::Target target, uint64_t capacity, uint64_t floor)
{
    target.max = std::max(std::min(target.max, capacity), floor);
    target.min = std::clamp(target.min, floor, target.max);
    return target;
}

}  // namespace

Autoscaler::Autoscaler(EventLoop& loop, ResourceManager& manager, store::AutoscaleStore& store,
                       cgroup::DriverSelector& drivers, store::StateStore& state)
    : loop_(loop),
      manager_(manager),
      store_(store),
      state_(state),
      drivers_(drivers),
      sampler_(state, drivers),
      pressureUnavailable_(cgroup::pressureUnavailable(drivers.root()))
{
}

std::optional<std::string> Autoscaler::refusal(const autoscale::Policy& policy) const
{
    if (!pressureUnavailable_)
        return std::nullopt;
    for (const auto& [key, target] : {std::pair{"CpuPressureTarget", &policy.cpuPressureTarget},
                                      std::pair{"MemoryPressureTarget", &policy.memoryPressureTarget}})
        if (*target)
            return std::string(key) + " cannot be followed here: " + *pressureUnavailable_;
    return std::nullopt;
}

Autoscaler::~Autoscaler()
{
    try {
        writeRecommendations();
    } catch (const store::StoreError& error) {
        spdlog::error("the autoscaler's latest recommendations are lost: {}", error.what());
    }
}

void Autoscaler::start()
{
    for (auto& [workload, policy] : store_.policies()) {
        Watched watched;
        watched.policy = policy;
        watched.cpu = store_.history(workload, kCpu);
        watched.memory = store_.history(workload, kMemory);
        schedule(workload, watched_.insert_or_assign(workload, std::move(watched)).first->second, std::nullopt);
    }
    wakeForNext();
    if (!watched_.empty())
        spdlog::info("autoscaling {} workload(s)", watched_.size());
}

void Autoscaler::setPolicy(const std::string& workload, const autoscale::Policy& policy)
{
    store_.savePolicy(workload, policy);
    auto [entry, added] = watched_.try_emplace(workload);
    entry->second.policy = policy;
    spdlog::info("{}: autoscale policy {}", workload, added ? "set" : "changed");
    if (!added)
        unschedule(entry->second);
    // Recommending only, it changes nothing: what it asked and waits for
    // capacity goes too.
    if (policy.mode == autoscale::Mode::Recommend)
        withdrawDeferred(workload, entry->second);
    schedule(workload, entry->second, std::nullopt);
    wakeForNext();
}

void Autoscaler::withdrawDeferred(const std::string& workload, Watched& watched)
{
    watched.deferred = {};
    watched.deferredEvents.clear();
    manager_.withdrawDeferred(workload, Actor::autoscale());
}

bool Autoscaler::removePolicy(const std::string& workload)
{
    const auto found = watched_.find(workload);
    const bool had = found != watched_.end();
    if (had) {
        unschedule(found->second);
        withdrawDeferred(workload, found->second);
        watched_.erase(found);
    }
    std::erase_if(unwritten_, [&](const auto& unwritten) { return unwritten.workload == workload; });
    store_.removePolicy(workload);
    if (had)
        spdlog::info("{}: autoscale policy removed", workload);
    return had;
}

void Autoscaler::workloadChanged(const store::WorkloadRecord& record)
{
    const auto found = watched_.find(record.name);
    if (found == watched_.end())
        return;
    if (!found->second.deferredEvents.empty())
        settleDeferred(record.name, found->second, record);
    found->second.known = record;
}

std::optional<Autoscaler::View> Autoscaler::view(const std::string& workload) const
{
    const auto watched = watched_.find(workload);
    if (watched == watched_.end())
        return std::nullopt;
    View view{watched->second.policy, watched->second.status};
    const auto now = Clock::now();
    for (const auto& [name, reported] : watched->second.reported) {
        view.status.metrics.emplace(name, reported.value);
        view.status.metricsAgeUsec.emplace(
            name, std::chrono::duration_cast<std::chrono::microseconds>(now - reported.at).count());
    }
    return view;
}

void Autoscaler::report(const std::string& workload, const std::map<std::string, double>& values)
{
    for (const auto& [name, value] : values) {
        if (name.empty())
            throw ResizeError(ErrorCode::InvalidArgument, "a metric's name is empty");
        // Written so that NaN fails too.
        if (!(value >= 0) || !std::isfinite(value))
            throw ResizeError(ErrorCode::InvalidArgument,
                              "metric \"" + name + "\" is " + std::to_string(value) + ", not a number of 0 or more");
    }
    const auto watched = watched_.find(workload);
    if (watched == watched_.end())
        throw ResizeError(ErrorCode::NoSuchWorkload, "no autoscale policy for \"" + workload +
                                                         "\": SetAutoscalePolicy first, with Metrics naming these");
    const auto at = Clock::now();
    for (const auto& [name, value] : values)
        watched->second.reported[name] = {value, at};
}

std::vector<PublishedAppMetric> Autoscaler::appMetrics() const
{
    std::vector<PublishedAppMetric> published;
    for (const auto& [workload, watched] : watched_)
        for (const auto& [name, reported] : watched.reported)
            published.push_back({workload, name, reported.value});
    return published;
}

uint64_t Autoscaler::workingSetFloor(Watched& watched, uint64_t workingSet, autoscale::Micros at)
{
    auto& peaks = watched.workingSetPeaks;
    while (!peaks.empty() && peaks.back().second <= workingSet)
        peaks.pop_back();
    peaks.emplace_back(at, workingSet);
    const autoscale::Micros window = std::max(watched.policy.scaleDown.stabilization, watched.policy.interval);
    while (peaks.front().first < at - window)
        peaks.pop_front();
    return static_cast<uint64_t>(std::ceil(static_cast<double>(peaks.front().second) * (1 + autoscale::kWorkingSetMargin)));
}

std::vector<core::autoscale::MetricReading> Autoscaler::readings(const Watched& watched,
                                                                 core::autoscale::MetricResource resource)
{
    const auto now = Clock::now();
    std::vector<core::autoscale::MetricReading> found;
    for (const auto& [name, metric] : watched.policy.metrics) {
        if (metric.resource != resource)
            continue;
        const auto reported = watched.reported.find(name);
        const bool fresh = reported != watched.reported.end() && now - reported->second.at <= watched.policy.metricMaxAge;
        found.push_back({metric, fresh ? std::optional(reported->second.value) : std::nullopt});
    }
    if (const auto& target = watched.policy.pressureTarget(resource)) {
        const auto& pressure =
            resource == autoscale::MetricResource::Cpu ? watched.cpuPressure : watched.memoryPressure;
        found.push_back({{*target, autoscale::Direction::LowerIsBetter, resource}, pressure.percent});
    }
    return found;
}

void Autoscaler::followPressure(const std::string& workload, Watched& watched, const store::WorkloadRecord& record,
                                const cgroup::Usage& usage)
{
    const auto now = Clock::now();
    const std::tuple<PressureWatch&, cgroup::PressureResource, const std::optional<double>&,
                     const std::optional<cgroup::PressureStall>&>
        resources[] = {
            {watched.cpuPressure, cgroup::PressureResource::Cpu, watched.policy.cpuPressureTarget, usage.cpuPressure},
            {watched.memoryPressure, cgroup::PressureResource::Memory, watched.policy.memoryPressureTarget,
             usage.memoryPressure},
        };
    for (const auto& [pressure, resource, target, stall] : resources) {
        if (!target) {
            pressure = {};
            continue;
        }
        // Another cgroup (the container started again) counts from 0.
        if (pressure.cgroup != record.cgroupPath) {
            pressure = {};
            pressure.cgroup = record.cgroupPath;
        }
        pressure.percent.reset();
        if (stall && pressure.someUsec && now > pressure.sampledAt) {
            const auto elapsed = std::chrono::duration_cast<std::chrono::microseconds>(now - pressure.sampledAt);
            const double stalled = static_cast<double>(stall->someUsec - std::min(stall->someUsec, *pressure.someUsec));
            pressure.percent = std::min(100.0, stalled * 100 / static_cast<double>(elapsed.count()));
        }
        pressure.someUsec = stall ? std::optional(stall->someUsec) : std::nullopt;
        pressure.sampledAt = now;
        if (!pressure.trigger)
            armTrigger(workload, watched, pressure, resource, *target, record.cgroupPath);
    }
}

void Autoscaler::armTrigger(const std::string& workload, Watched& watched, PressureWatch& pressure,
                            cgroup::PressureResource resource, double target, const std::string& cgroup)
{
    // The kernel takes windows of 500 ms to 10 s; one interval is what a
    // sample would look at.
    const auto window = std::clamp<std::chrono::microseconds>(watched.policy.interval, std::chrono::milliseconds(500),
                                                              std::chrono::seconds(10));
    const auto threshold = std::max<std::chrono::microseconds>(
        std::chrono::microseconds(static_cast<int64_t>(static_cast<double>(window.count()) * target / 100)),
        std::chrono::microseconds(1));
    try {
        pressure.trigger = drivers_.forCgroup(cgroup).armPressureTrigger(cgroup, resource, threshold, window);
    } catch (const cgroup::CgroupError& error) {
        // Sampling still sees the pressure, an interval late.
        spdlog::warn("{}: no pressure trigger on {}: {}", workload, cgroup, error.what());
        return;
    }
    if (!pressure.trigger)
        return;
    pressure.triggered =
        loop_.watch(pressure.trigger->get(), EPOLLPRI, [this, workload, resource](uint32_t events) {
            const auto found = watched_.find(workload);
            if (found == watched_.end())
                return;
            auto& watch = resource == cgroup::PressureResource::Cpu ? found->second.cpuPressure
                                                                     : found->second.memoryPressure;
            // The cgroup went: the next sample's cgroup gets a trigger anew.
            if (events & EPOLLERR) {
                watch = {};
                return;
            }
            spdlog::debug("{}: pressure above the target, sampled at once", workload);
            tick(workload, found->second);
        });
}

std::vector<PublishedRecommendation> Autoscaler::recommendations() const
{
    std::vector<PublishedRecommendation> published;
    for (const auto& [workload, watched] : watched_) {
        if (watched.status.cpuRecommendationMillis)
            published.push_back({workload, std::string(kCpu), *watched.status.cpuRecommendationMillis});
        if (watched.status.memoryRecommendation)
            published.push_back({workload, std::string(kMemory), *watched.status.memoryRecommendation});
    }
    return published;
}

void Autoscaler::schedule(const std::string& workload, Watched& watched, std::optional<Clock::time_point> lastDue)
{
    watched.due = schedule_.emplace(nextDue(lastDue, watched.policy.interval), workload);
}

void Autoscaler::unschedule(Watched& watched)
{
    schedule_.erase(watched.due);
    watched.due = schedule_.end();
}

void Autoscaler::wakeForNext()
{
    if (schedule_.empty()) {
        wake_ = {};
        return;
    }
    const auto& [next, workload] = *schedule_.begin();
    if (wake_ && wakeAt_ == next)
        return;
    wakeAt_ = next;
    wake_ = loop_.at(next, watched_.at(workload).policy.interval / kIntervalSlackDivisor, [this] { sampleDue(); });
}

void Autoscaler::sampleDue()
{
    wake_ = {};
    const auto now = Clock::now();
    for (std::size_t sampled = 0; sampled < kSamplesPerBatch && !schedule_.empty(); ++sampled) {
        const auto next = schedule_.begin();
        if (next->first > now)
            break;
        const auto [due, workload] = *next;
        schedule_.erase(next);
        auto& watched = watched_.at(workload);
        schedule(workload, watched, due);
        tick(workload, watched);
    }
    wakeForNext();
}

void Autoscaler::tick(const std::string& workload, Watched& watched)
{
    if (watched.changing)
        return;
    // A workload resized has not changed yet is not in the store: its
    // source says where its cgroup is and what its limits are. Asking is a
    // round trip to Podman, so the answer serves a while.
    const auto now = std::chrono::steady_clock::now();
    const bool resolvedLately = watched.resolved && now < watched.resolvedAt + kResolveAgain;
    if (!watched.known && !resolvedLately) {
        try {
            watched.known = state_.find(workload);
        } catch (const store::StoreError& error) {
            // A locked or failing state file: the next interval tries again.
            spdlog::warn("{}: not sampled: {}", workload, error.what());
            return;
        }
    }
    if (watched.known && watched.known->hasCgroup()) {
        // A cgroup that does not read any more was replaced or removed: the
        // next sample asks the store again.
        if (!sampleAndDecide(workload, watched, *watched.known))
            watched.known.reset();
        return;
    }
    if (resolvedLately && sampleAndDecide(workload, watched, *watched.resolved))
        return;
    watched.changing = true;
    manager_.status(workload, answerFor(workload, [this, workload, now](Watched& entry, UpdateResult result) {
        entry.resolved.reset();
        auto* record = std::get_if<store::WorkloadRecord>(&result);
        if (!record || !record->hasCgroup())
            return;
        entry.resolved = std::move(*record);
        entry.resolvedAt = now;
        sampleAndDecide(workload, entry, *entry.resolved);
    }));
}

UpdateCallback Autoscaler::answerFor(const std::string& workload, std::function<void(Watched&, UpdateResult)> then)
{
    return [this, alive = std::weak_ptr(alive_), workload, then = std::move(then)](UpdateResult result) {
        if (alive.expired())
            return;
        const auto found = watched_.find(workload);
        if (found == watched_.end())
            return;
        found->second.changing = false;
        then(found->second, std::move(result));
    };
}

bool Autoscaler::sampleAndDecide(const std::string& workload, Watched& watched, const store::WorkloadRecord& record)
{
    // Throttling is for the metrics, and pressure too unless a target
    // reads it: each is a read more per sample.
    const bool pressure = watched.policy.cpuPressureTarget || watched.policy.memoryPressureTarget;
    const auto usage = sampler_.sample(
        record, {.memory = watched.policy.memory.has_value(), .throttling = false, .pressure = pressure});
    if (!usage)
        return false;
    followPressure(workload, watched, record, usage->usage);
    decide(workload, watched, record, *usage);
    return true;
}

void Autoscaler::decide(const std::string& workload, Watched& watched, const store::WorkloadRecord& record,
                        const WorkloadUsage& usage)
{
    const auto at = now();
    const auto& capacity = manager_.capacity();
    auto& status = watched.status;
    // Admitted since, or replaced by another change: asking again is new.
    if (record.updateState != core::UpdateState::Deferred)
        watched.deferred = {};
    status.cpuUsageMillis = usage.cpuMillicores;
    // Memory is sampled only for a policy that scales it.
    status.memoryWorkingSet =
        watched.policy.memory ? std::optional(usage.usage.workingSetBytes()) : std::nullopt;

    Change change;
    if (watched.policy.memory) {
        const bool oomKilled = watched.oomCgroup == record.cgroupPath && watched.oomKills &&
                               usage.usage.oomKills > *watched.oomKills;
        watched.oomKills = usage.usage.oomKills;
        watched.oomCgroup = record.cgroupPath;
        autoscale::Target memory = withinNode(*watched.policy.memory, capacity.memory, core::kMinMemory);
        memory.min = std::clamp(workingSetFloor(watched, *status.memoryWorkingSet, at), memory.min, memory.max);
        decideOne(workload, watched,
                  {kMemory, memory,
                   record.actual.memoryMax.value_or(core::kUnlimited), status.memoryWorkingSet,
                   readings(watched, autoscale::MetricResource::Memory), watched.memory, status.memoryRecommendation,
                   status.memoryCondition, change.request.memoryMax},
                  oomKilled, at, change);
    }
    // A slice has no quota: its CPUs are its limit, and a change of it is a
    // change of its size, in whole CPUs (design.md §1c), never a quota the
    // CPU manager would refuse.
    const uint64_t slice = record.desired.exclusiveCpus.value_or(0);
    if (watched.policy.cpu) {
        decideOne(workload, watched,
                  {kCpu, withinNode(*watched.policy.cpu, capacity.cpuMillis, core::kMinCpuMillis),
                   slice > 0 ? slice * 1000 : record.actual.cpuMillis.value_or(core::kUnlimited),
                   status.cpuUsageMillis, readings(watched, autoscale::MetricResource::Cpu), watched.cpu,
                   status.cpuRecommendationMillis, status.cpuCondition, change.request.cpuMillis},
                  false, at, change);
        if (slice > 0 && change.request.cpuMillis) {
            const uint64_t cpus = std::max<uint64_t>(1, (*change.request.cpuMillis + 999) / 1000);
            change.request.cpuMillis.reset();
            if (cpus != slice)
                change.request.exclusiveCpus = cpus;
        }
    }

    // The condition that explains most: a limit beats a stabilisation beats
    // "within range".
    const auto telling = std::max_element(change.conditions.begin(), change.conditions.end());
    status.condition = telling == change.conditions.end() ? "" : std::string(autoscale::conditionName(*telling));
    if (watched.policy.mode == autoscale::Mode::Recommend || change.request.empty())
        return;
    if (change.request == watched.deferred) {
        status.condition = "Deferred";
        return;
    }
    // A first limit on a workload without one lowers it, and yet asks the
    // node for more than it counted: what decides is the allocation.
    const core::Amounts before = core::allocationOf(record.actual);
    const core::Amounts after = core::allocationOf(record.actual.overlaidWith(change.request));
    const bool grows = after.cpuMillis > before.cpuMillis || after.memory > before.memory;
    send(workload, watched, std::move(change.request), std::move(change.events), grows);
}

void Autoscaler::decideOne(const std::string& workload, Watched& watched, const Resource& resource, bool oomKilled,
                           autoscale::Micros at, Change& change)
{
    // As the HPA does for a new autoscaler: the current limit is the first
    // recommendation, so a fall waits for the whole down-window. No limit
    // is none: the first comes from the usage (autoscale::decide).
    if (resource.history.recommendations.empty() && resource.current != autoscale::kUnbounded)
        remember(workload, watched.policy, resource.name, resource.history, {at, resource.current});
    uint64_t value = 0;
    if (oomKilled) {
        value = autoscale::oomBump(resource.current, resource.target);
        spdlog::warn("{}: OOM kill seen; memory raised at once from {} to {} bytes", workload, resource.current,
                     value);
        // Remembered, so that the down-window holds the raised limit.
        remember(workload, watched.policy, resource.name, resource.history, {at, value});
    } else {
        const auto decision = autoscale::decide(resource.current, resource.usage, resource.target, watched.policy,
                                                resource.history, at, resource.metrics);
        // A missing sample (the CPU rate's first) recommends nothing.
        const bool measured = resource.usage || std::any_of(resource.metrics.begin(), resource.metrics.end(),
                                                            [](const auto& reading) { return reading.value; });
        if (measured)
            remember(workload, watched.policy, resource.name, resource.history, {at, decision.recommendation});
        value = decision.value;
        change.conditions.push_back(decision.condition);
        resource.condition = autoscale::conditionName(decision.condition);
    }
    // Still without a limit (waiting for the usage its first comes from):
    // nothing decided yet.
    if (value != autoscale::kUnbounded || resource.current != autoscale::kUnbounded)
        resource.recommendation = value;
    if (value != resource.current) {
        resource.requested = value;
        change.events.emplace_back(resource.name, autoscale::ScaleEvent{at, resource.current, value});
    }
}

void Autoscaler::send(const std::string& workload, Watched& watched, core::Resources request, ScaleEvents events,
                      bool grows)
{
    watched.changing = true;
    spdlog::info("{}: autoscale to {}", workload, core::describe(request));
    // Short of capacity, a growth waits in the manager's queue rather than
    // being asked again every interval. A shrink always fits; what can
    // refuse it is a pool's disruption budget, and the next sample asks
    // again, with what it sees then.
    UpdateOptions options;
    options.defer = grows;
    manager_.update(
        workload, request, options, Actor::autoscale(),
        answerFor(workload, [this, workload, request, events = std::move(events)](Watched& entry, UpdateResult result) {
            if (const auto* error = std::get_if<ResizeError>(&result)) {
                spdlog::warn("{}: autoscale change refused: {}", workload, error->what());
                if (error->code() == ErrorCode::BudgetExhausted)
                    entry.status.condition = "BudgetExhausted";
                return;
            }
            if (std::get<store::WorkloadRecord>(result).updateState == core::UpdateState::Deferred) {
                entry.deferred = request;
                entry.deferredEvents = events;
                entry.status.condition = "Deferred";
                return;
            }
            entry.deferred = {};
            entry.deferredEvents.clear();
            recordEvents(workload, entry, events);
        }));
}

void Autoscaler::recordEvents(const std::string& workload, Watched& watched, const ScaleEvents& events)
{
    for (const auto& [resource, event] : events) {
        auto& history = resource == kCpu ? watched.cpu : watched.memory;
        autoscale::recordScale(history, watched.policy, event);
        try {
            store_.addEvent(workload, resource, event, event.at - autoscale::longestPeriod(watched.policy));
        } catch (const store::StoreError& error) {
            // The history in memory has it; only a restart would forget it.
            spdlog::warn("{}: autoscale change not written to the state file: {}", workload, error.what());
        }
        watched.status.lastScaleUsec = static_cast<uint64_t>(event.at.count());
    }
}

void Autoscaler::settleDeferred(const std::string& workload, Watched& watched, const store::WorkloadRecord& record)
{
    using core::UpdateState;
    if (record.updateState == UpdateState::Deferred || record.updateState == UpdateState::Pending ||
        record.updateState == UpdateState::Running)
        return;
    auto events = std::exchange(watched.deferredEvents, {});
    const auto ran = [&](const auto& resourceAndEvent) {
        const auto& [resource, event] = resourceAndEvent;
        const auto& desired = resource == kCpu ? record.desired.cpuMillis : record.desired.memoryMax;
        return desired == event.to;
    };
    if (record.updateState != UpdateState::Success || !std::all_of(events.begin(), events.end(), ran))
        return;
    const auto at = now();
    for (auto& [resource, event] : events)
        event.at = at;
    recordEvents(workload, watched, events);
}

void Autoscaler::remember(const std::string& workload, const autoscale::Policy& policy, std::string_view resource,
                          autoscale::History& history, autoscale::Recommendation recommendation)
{
    autoscale::remember(history, policy, recommendation);
    unwritten_.push_back(
        {workload, std::string(resource), recommendation, recommendation.at - autoscale::longestWindow(policy)});
    if (!writeTimer_)
        writeTimer_ = loop_.after(kWriteInterval, [this] {
            writeTimer_ = {};
            try {
                writeRecommendations();
            } catch (const store::StoreError& error) {
                // Kept for the next try: the history in memory is whole.
                spdlog::warn("autoscale recommendations not written yet: {}", error.what());
            }
        });
}

void Autoscaler::writeRecommendations()
{
    if (unwritten_.empty())
        return;
    store_.addRecommendations(unwritten_);
    unwritten_.clear();
}

}  // namespace resized::service
