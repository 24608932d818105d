#include "service/budget_clock.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>

#include "core/cron.h"
#include "service/ledger.h"
#include "service/reconciler.h"

namespace resized::service {
namespace {

// What the budgets allow is announced at most this late.
constexpr std::chrono::milliseconds kAccuracy{10};
// A store that could not be read is read again after this long.
constexpr std::chrono::seconds kStoreRetry{1};

}  // namespace

std::optional<uint64_t> nextBudgetChangeUsec(store::StateStore& store, const store::PoolRecord& pool,
                                             uint64_t nowUsec)
{
    using Microseconds = std::chrono::microseconds;
    std::optional<uint64_t> next;
    const auto consider = [&next](uint64_t moment) { next = std::min(next.value_or(moment), moment); };
    for (const auto& budget : pool.budgets) {
        if (budget.window) {
            const std::chrono::sys_time<Microseconds> now{Microseconds(nowUsec)};
            const auto edge = core::nextWindowEdge(Microseconds(budget.window->durationUsec), now);
            consider(static_cast<uint64_t>(edge.time_since_epoch().count()));
        }
        if (budget.periodUsec == 0)
            continue;
        // A disruption is counted while it is at or after now less the
        // period (StateStore::countDisruptions).
        const uint64_t since = nowUsec > budget.periodUsec ? nowUsec - budget.periodUsec : 0;
        if (const auto first = store.firstDisruptionSince(pool.name, since))
            consider(*first + budget.periodUsec + 1);
    }
    return next;
}

std::optional<uint64_t> nextBudgetChangeUsec(store::StateStore& store, uint64_t nowUsec)
{
    std::optional<uint64_t> next;
    for (const auto& pool : store.pools())
        if (const auto moment = nextBudgetChangeUsec(store, pool, nowUsec))
            next = std::min(next.value_or(*moment), *moment);
    return next;
}

std::optional<uint64_t> disruptionsAllowedAtUsec(store::StateStore& store, const store::PoolRecord& pool,
                                                 core::DisruptionReason reason, size_t disruptions,
                                                 uint64_t nowUsec)
{
    // A window may open or close at every minute: a day of them at most,
    // as this is asked at each refusal.
    constexpr int kMostMomentsTried = 24 * 60;
    uint64_t moment = nowUsec;
    for (int tried = 0; tried < kMostMomentsTried; ++tried) {
        const auto next = nextBudgetChangeUsec(store, pool, moment);
        if (!next || *next <= moment)
            return std::nullopt;
        moment = *next;
        const auto allowed = allowedDisruptions(store, pool, reason, moment);
        if (!allowed || *allowed >= disruptions)
            return moment;
    }
    return std::nullopt;
}

BudgetClock::BudgetClock(EventLoop& loop, store::StateStore& store, std::function<void()> changed)
    : loop_(loop), store_(store), changed_(std::move(changed))
{
}

void BudgetClock::rearm()
{
    const uint64_t now = nowUsec();
    std::optional<uint64_t> next;
    try {
        next = nextBudgetChangeUsec(store_, now);
    } catch (const store::StoreError& error) {
        spdlog::warn("cannot read the disruption budgets to see when they change: {}", error.what());
        next = now + std::chrono::duration_cast<std::chrono::microseconds>(kStoreRetry).count();
    }
    if (!next) {
        timer_ = {};
        return;
    }
    timer_ = loop_.at(std::chrono::steady_clock::now() + std::chrono::microseconds(*next - now), kAccuracy, [this] {
        changed_();
        rearm();
    });
}

}  // namespace resized::service
