#include "service/pools.h"

#include <spdlog/spdlog.h>

#include <set>
#include <stdexcept>

#include "core/quantity.h"
#include "core/validation.h"
#include "service/budget_windows.h"
#include "service/errors.h"
#include "service/ledger.h"
#include "service/reconciler.h"

namespace resized::service {
namespace {

ResizeError noSuchPool(const std::string& name)
{
    return ResizeError(ErrorCode::NoSuchPool, "no pool is named \"" + name + "\"");
}

ResizeError invalid(const std::string& message) { return ResizeError(ErrorCode::InvalidArgument, message); }

void refuseDeclared(const store::PoolRecord& pool)
{
    if (!pool.declaredIn.empty())
        throw invalid("pool " + pool.name + " is declared in " + pool.declaredIn +
                      ": change that file and reload resized (systemctl reload resized)");
}

std::string describeCap(const core::Amounts& cap)
{
    const auto describe = [](uint64_t value, auto format) {
        return value == core::kUnlimited ? std::string("no cap") : format(value);
    };
    return "CPU " + describe(cap.cpuMillis, core::formatCpuMillis) + ", memory " +
           describe(cap.memory, core::formatBytes);
}

}  // namespace

core::DisruptionBudget checkedBudget(const BudgetSpec& spec)
{
    if (!spec.value)
        throw invalid("a budget needs a Value");
    auto budget = core::parseBudgetValue(*spec.value);
    if (!budget)
        throw invalid("a budget's Value is a count or a percent such as \"2\" or \"25%\", not \"" + *spec.value + "\"");
    budget->periodUsec = spec.periodUsec.value_or(0);
    if (budget->periodUsec > store::kDisruptionRetentionUsec)
        throw invalid("a budget's PeriodUSec is at most 7 days");
    for (const auto& name : spec.reasons) {
        const auto reason = core::parseDisruptionReason(name);
        if (!reason)
            throw invalid("unknown disruption reason \"" + name + "\" (known: manual, autoscale, plan)");
        budget->reasons.insert(*reason);
    }
    // No window, as the Budgets property shows one: an entry read there can
    // be given back as it is.
    if (spec.schedule && spec.schedule->empty()) {
        if (spec.durationUsec.value_or(0) != 0)
            throw invalid("a budget without a Schedule has no DurationUSec");
        return *budget;
    }
    if (spec.schedule.has_value() != spec.durationUsec.has_value())
        throw invalid("a budget's Schedule and DurationUSec come together: its window opens when the schedule "
                      "fires and lasts that long");
    if (spec.timeZone && !spec.schedule)
        throw invalid("a budget's TimeZone is that of its Schedule, which it lacks");
    if (!spec.schedule)
        return *budget;
    if (*spec.durationUsec == 0 || *spec.durationUsec > store::kDisruptionRetentionUsec)
        throw invalid("a budget's DurationUSec is more than 0 and at most 7 days");
    const std::string timeZone = spec.timeZone.value_or("UTC");
    if (!knownTimeZone(timeZone))
        throw invalid("the time zone database knows no \"" + timeZone + "\" (an IANA name such as \"Europe/Berlin\")");
    try {
        budget->window = core::DisruptionBudget::Window{
            .schedule = core::CronSchedule::parse(*spec.schedule),
            .durationUsec = *spec.durationUsec,
            .timeZone = timeZone,
        };
    } catch (const std::invalid_argument& error) {
        throw invalid(error.what());
    }
    return *budget;
}

Pools::Pools(store::StateStore& store, std::function<void()> changed,
             std::function<PoolUsage(const store::PoolRecord&)> usageOf)
    : store_(store), changed_(std::move(changed)), usageOf_(std::move(usageOf))
{
}

void Pools::set(const std::string& name, const PoolSpec& spec)
{
    if (const auto why = core::invalidPoolName(name))
        throw ResizeError(ErrorCode::InvalidArgument, *why);
    store::WriteTransaction transaction(store_.database());
    store::PoolRecord pool = store_.findPool(name).value_or(store::PoolRecord{.name = name});
    refuseDeclared(pool);
    pool.cap.cpuMillis = spec.cpuMillis.value_or(pool.cap.cpuMillis);
    pool.cap.memory = spec.memory.value_or(pool.cap.memory);
    if (spec.budgets)
        pool.budgets = *spec.budgets;
    store_.savePool(pool);
    transaction.commit();
    spdlog::info("pool {}: {}, {} disruption budgets", pool.name, describeCap(pool.cap), pool.budgets.size());
    changed_();
}

void Pools::remove(const std::string& name)
{
    store::WriteTransaction transaction(store_.database());
    const auto pool = store_.findPool(name);
    if (!pool)
        throw noSuchPool(name);
    refuseDeclared(*pool);
    store_.removePool(name);
    transaction.commit();
    spdlog::info("pool {} removed; its members keep their limits", name);
    changed_();
}

void Pools::declare(const std::vector<store::PoolRecord>& declared)
{
    store::WriteTransaction transaction(store_.database());
    std::set<std::string> names;
    for (const auto& pool : declared) {
        const auto before = store_.findPool(pool.name);
        if (before && before->declaredIn.empty())
            spdlog::info("pool {}: declared in {}, which takes over the pool set over D-Bus", pool.name,
                         pool.declaredIn);
        if (before != pool)
            spdlog::info("pool {}: {}, {} disruption budgets, declared in {}", pool.name, describeCap(pool.cap),
                         pool.budgets.size(), pool.declaredIn);
        store_.savePool(pool);
        names.insert(pool.name);
    }
    for (const auto& pool : store_.pools())
        if (!pool.declaredIn.empty() && !names.contains(pool.name)) {
            store_.removePool(pool.name);
            spdlog::info("pool {} removed with its file {}; its members keep their limits", pool.name,
                         pool.declaredIn);
        }
    transaction.commit();
    changed_();
}

std::vector<store::PoolRecord> Pools::list() { return store_.pools(); }

PoolStatus Pools::status(const std::string& name)
{
    auto pool = store_.findPool(name);
    if (!pool)
        throw noSuchPool(name);
    const auto allowed = allowedDisruptions(store_, *pool, core::DisruptionReason::Manual, nowUsec());
    const PoolUsage usage = usageOf_(*pool);
    // A container it does not manage is a member too when its label names
    // the pool: it counts in the pool's allocation.
    std::set<std::string> members(usage.unheld.begin(), usage.unheld.end());
    for (auto& member : store_.poolMembers(name))
        members.insert(std::move(member));
    return {std::move(*pool), usage.allocated, {members.begin(), members.end()}, allowed};
}

}  // namespace resized::service
