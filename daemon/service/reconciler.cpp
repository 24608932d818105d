#include "service/reconciler.h"

#include <spdlog/spdlog.h>
#include <time.h>

#include <algorithm>

#include "core/admission.h"
#include "core/drift.h"
#include "core/resource_keys.h"
#include "service/known_container.h"
#include "service/record_transitions.h"

namespace resized::service {

uint64_t nowUsec()
{
    timespec now{};
    clock_gettime(CLOCK_REALTIME, &now);
    return static_cast<uint64_t>(now.tv_sec) * 1'000'000 + static_cast<uint64_t>(now.tv_nsec) / 1000;
}

core::Backoff retryBackoff(std::chrono::milliseconds interval, std::chrono::milliseconds longest)
{
    const auto first = std::max(interval, std::chrono::milliseconds(1));
    return core::Backoff(first, std::max(first, longest));
}

Reconciler::Retry& Reconciler::retryOf(std::map<std::string, Retry>& retries, const std::string& name,
                                       std::chrono::milliseconds longest)
{
    return retries.try_emplace(name, Retry{retryBackoff(settings_.retryInterval, longest), {}}).first->second;
}

Reconciler::Reconciler(EventLoop& loop, store::StateStore& store, cgroup::DriverSelector& drivers,
                       ReconcilerHost& host, const Settings& settings)
    : loop_(loop), store_(store), drivers_(drivers), host_(host), settings_(settings)
{
}

void Reconciler::reconcileAll(const std::vector<Instance>& containers, const std::set<std::string>& newerThanListing)
{
    std::map<std::string, const Instance*, std::less<>> byName;
    for (const auto& instance : containers)
        byName.emplace(instance.name.canonical(), &instance);
    for (const auto& record : store_.workloads()) {
        if (newerThanListing.contains(record.name))
            continue;
        if (record.kind != core::WorkloadKind::Container) {
            reconcileOne(record.name);
            continue;
        }
        const auto listed = byName.find(record.name);
        static const Instance absent{};
        reconcileOne(record.name, listed == byName.end() ? &absent : listed->second);
    }
}

void Reconciler::reconcileOne(const std::string& name, const Instance* listed, Lookup lookup, const Actor& actor)
{
    try {
        reconcileNow(name, listed, lookup, actor);
        storeRetries_.erase(name);
    } catch (const store::StoreError& error) {
        // Not the runtime's refusal but the store's passing trouble: tried
        // again, doubling up to a minute, for as long as it lasts, without
        // using up the repair attempts.
        Retry& retry = retryOf(storeRetries_, name, std::chrono::minutes(1));
        const auto delay = scheduleRetry(retry, name);
        spdlog::error("{}: cannot reconcile: {}; trying again in {} ms", name, error.what(), delay.count());
    }
}

// `listed` is the workload's container from a listing; an Instance with no
// ID there means the listing has no such container. Without a listing the
// workload's source is asked, unless `lookup` trusts a binding.
void Reconciler::reconcileNow(const std::string& name, const Instance* listed, Lookup lookup, const Actor& actor)
{
    if (host_.busy(name))
        return;
    auto record = store_.find(name);
    if (!record)
        return;
    // A pass visits every workload; most are as they were, and writing and
    // announcing them anyway would cost a commit and a signal each.
    const store::WorkloadRecord stored = *record;
    const auto saveIfChanged = [&] {
        if (*record == stored)
            return;
        store_.save(*record);
        host_.announcer().changed(*record);
    };

    std::optional<Instance> instance;
    if (listed) {
        if (!listed->id.empty())
            instance = *listed;
    } else if (auto bound = lookup == Lookup::TrustBinding ? boundContainer(*record) : std::nullopt) {
        // A cgroup gone since fails the read below; the container's next
        // start event binds it again.
        instance = std::move(bound);
    } else {
        lookUpAndReconcile(*record);
        return;
    }

    if (!instance) {
        if (record->runState != core::RunState::Removed) {
            record->runState = core::RunState::Removed;
            record->removedAtUsec = nowUsec();
            record->cgroupPath.clear();
        }
        saveIfChanged();
        if (record->holdsAllocation)
            host_.scheduleRelease(*record);
        return;
    }

    // Admitted in one pod and pool, it is admitted again in the ones it
    // came back in: their limits and caps never held it (design.md §1c).
    const bool moved = transition::cameBackElsewhere(*record, *instance);
    transition::bind(*record, *instance);
    if (moved) {
        spdlog::info("{}: its container came back in pod \"{}\" and pool \"{}\", not \"{}\" and \"{}\"; "
                     "admitting it there",
                     name, record->pod, record->pool(), stored.pod, stored.pool());
        transition::movedOut(*record, stored, nowUsec());
        if (instance->hasCgroup())
            host_.countUnheld(*instance);
    }
    if (!instance->hasCgroup()) {
        saveIfChanged();
        return;
    }
    record->driver = std::string(drivers_.forCgroup(record->cgroupPath).driverName());
    // Placed now unless it is repaired below: a placement is a change of its
    // own, and a repair places it once it ends.
    if (!record->holdsAllocation) {
        host_.keepOnSharedPool(*instance);
        if (!record->desired.empty() && record->updateState == core::UpdateState::Pending) {
            saveIfChanged();
            host_.readmit(*record, *instance);
            return;
        }
        host_.countUnheld(*instance);
        saveIfChanged();
        return;
    }

    core::Resources actual;
    try {
        actual = drivers_.forCgroup(record->cgroupPath).read(record->cgroupPath);
    } catch (const cgroup::CgroupError& error) {
        spdlog::warn("{}: cannot read its cgroup: {}", name, error.what());
        return;
    }
    // The keys without a desired value count what the cgroup holds now: a
    // re-created container may have been created with other limits.
    record->allocated = core::allocationOf(actual.overlaidWith(record->desired));
    const core::Resources wanted =
        host_.placed({record->name, record->kind, record->pod}, record->desired,
                     record->actuated.overlaidWith(record->desired));
    auto& backend = drivers_.forCgroup(record->cgroupPath);
    if (core::matches(cgroup::asBackendReads(backend, record->cgroupPath, wanted), actual)) {
        if (record->updateState == core::UpdateState::Pending)
            transition::applied(*record, wanted, actual, nowUsec());
        else
            transition::synchronized(*record, actual);
        saveIfChanged();
        host_.keepOnSharedPool(*instance);
        return;
    }
    // The cgroup holds the cpuset last written, and the CPU manager's pool
    // has moved since (a slice given or given back): no one else wrote it.
    const auto drifted = core::driftedKeys(wanted, actual);
    const bool poolMoved =
        drifted == std::vector<std::string>{std::string(core::nameOf(core::ResourceKey::AllowedCpus))} &&
        record->actuated.allowedCpus &&
        core::matches(cgroup::asBackendReads(backend, record->cgroupPath, core::only(record->actuated,
                                                                                    core::ResourceKey::AllowedCpus)),
                      actual);
    if (poolMoved) {
        spdlog::info("{}: the shared pool moved; placing it on {}", name,
                     core::describe(core::only(wanted, core::ResourceKey::AllowedCpus)));
    } else if (record->updateState != core::UpdateState::Pending) {
        spdlog::warn("{}: drift in {}: wanted {}, found {}", name,
                     fmt::join(drifted, ", "), core::describe(wanted),
                     core::describe(actual));
        transition::driftDetected(*record, actual);
        store_.save(*record);
        host_.announcer().changed(*record);
        host_.announcer().drift(name, record->desired, actual);
    } else if (*record != stored) {
        store_.save(*record);
    }
    host_.repair(std::move(*record), wanted, actor);
}

void Reconciler::lookUpAndReconcile(const store::WorkloadRecord& record)
{
    const auto [lookup, first] = lookingUp_.try_emplace(record.name, false);
    if (!first) {
        lookup->second = true;
        return;
    }
    host_.lookUp(record, [this, name = record.name](Found found) {
        const bool askedAgain = lookingUp_.extract(name).mapped();
        reconcileFound(name, std::move(found));
        if (askedAgain)
            reconcileOne(name);
    });
}

void Reconciler::reconcileFound(const std::string& name, Found found)
{
    if (const auto* unavailable = std::get_if<SourceUnavailable>(&found)) {
        host_.sourceUnavailable(unavailable->what());
        return;
    }
    if (const auto* ambiguous = std::get_if<AmbiguousName>(&found)) {
        spdlog::warn("{}: cannot reconcile: {}", name, ambiguous->what());
        return;
    }
    // An instance without an ID stands for none, as in a listing.
    const Instance instance = std::get<std::optional<Instance>>(std::move(found)).value_or(Instance{});
    reconcileOne(name, &instance);
}

void Reconciler::repairFinished(const std::string& name, bool repaired)
{
    if (repaired) {
        repairRetries_.erase(name);
        return;
    }
    Retry& retry = retryOf(repairRetries_, name, std::chrono::hours(1));
    if (retry.backoff.attempts() + 1 >= settings_.retryAttempts) {
        spdlog::error("{}: repair failed {} times; giving up until the next sync", name,
                      retry.backoff.attempts() + 1);
        repairRetries_.erase(name);
        return;
    }
    const auto delay = scheduleRetry(retry, name);
    spdlog::info("{}: repair failed; retrying in {} ms", name, delay.count());
}

std::chrono::milliseconds Reconciler::scheduleRetry(Retry& retry, const std::string& name)
{
    const auto delay = retry.backoff.next();
    retry.timer = loop_.after(delay, [this, name] { reconcileOne(name, nullptr, Lookup::TrustBinding); });
    return delay;
}

void Reconciler::schedulePeriodicSync(std::function<void()> pass)
{
    periodicPass_ = std::move(pass);
    armSyncTimer();
}

void Reconciler::armSyncTimer()
{
    syncTimer_ = loop_.after(settings_.syncInterval, [this] {
        periodicPass_();
        armSyncTimer();
    });
}

}  // namespace resized::service
