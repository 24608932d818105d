#include "service/pools.h"

#include <spdlog/spdlog.h>

#include "core/quantity.h"
#include "core/validation.h"
#include "service/errors.h"
#include "service/ledger.h"
#include "service/reconciler.h"

namespace resized::service {
namespace {

ResizeError noSuchPool(const std::string& name)
{
    return ResizeError(ErrorCode::NoSuchPool, "no pool is named \"" + name + "\"");
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

Pools::Pools(store::StateStore& store, std::function<void()> changed)
    : store_(store), changed_(std::move(changed))
{
}

void Pools::set(const std::string& name, const PoolSpec& spec)
{
    if (const auto why = core::invalidPoolName(name))
        throw ResizeError(ErrorCode::InvalidArgument, *why);
    store::WriteTransaction transaction(store_.database());
    store::PoolRecord pool = store_.findPool(name).value_or(store::PoolRecord{.name = name});
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
    if (!store_.removePool(name))
        throw noSuchPool(name);
    spdlog::info("pool {} removed; its members keep their limits", name);
    changed_();
}

std::vector<store::PoolRecord> Pools::list() { return store_.pools(); }

PoolStatus Pools::status(const std::string& name)
{
    auto pool = store_.findPool(name);
    if (!pool)
        throw noSuchPool(name);
    const auto allowed = allowedDisruptions(store_, *pool, core::DisruptionReason::Manual, nowUsec());
    return {std::move(*pool), store_.poolAllocated(name), store_.poolMembers(name), allowed};
}

}  // namespace resized::service
