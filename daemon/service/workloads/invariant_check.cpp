#include "service/workloads/invariant_check.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <string>

namespace resized::service {

InvariantCheck::InvariantCheck(store::StateStore& store, Ledger& ledger, core::CpuSet reservedCpus)
    : store_(store), ledger_(ledger), reservedCpus_(std::move(reservedCpus)), mode_(modeFromEnvironment())
{
}

InvariantCheck::Mode InvariantCheck::modeFromEnvironment()
{
    const char* value = std::getenv("RESIZED_CHECK_INVARIANTS");
    const std::string_view mode = value ? value : "";
    if (mode == "abort")
        return Mode::Abort;
    if (mode == "log")
        return Mode::Log;
    return Mode::Off;
}

core::AdmittedState InvariantCheck::admittedState()
{
    core::AdmittedState state;
    state.node = {{}, ledger_.capacity(), ledger_.admittedIn(nullptr), store_.reservedTotal() - coveredByPlans()};
    for (const auto& pool : store_.pools())
        state.pools.push_back({pool.name, pool.cap, ledger_.admittedIn(&pool.name), store_.poolReserved(pool.name)});
    for (const auto& [pod, limit] : store_.heldPodLimits()) {
        core::AdmittedState::Pod held{"pod:" + pod, limit, {}};
        for (const auto& member : store_.podMemberAllocations(pod))
            held.members.emplace(member.workload, member.amounts);
        state.pods.push_back(std::move(held));
    }
    state.slices = store_.heldSlices();
    state.reservedCpus = reservedCpus_;
    return state;
}

// A plan admitted on the node nets its decreases against its increases in
// every pool, where each pool nets only its own (Ledger::assessPlan); it
// applies the decreases first. What its decreases in one pool cover of its
// increases in another is reserved twice over on the node, and comes off.
core::Amounts InvariantCheck::coveredByPlans()
{
    struct Plan {
        core::Amounts reserved;
        core::Amounts freed;
    };
    std::map<int64_t, Plan> plans;
    for (const auto& reservation : store_.reservations()) {
        if (reservation.planId == 0)
            continue;
        Plan& plan = plans[reservation.planId];
        plan.reserved = plan.reserved + reservation.amounts;
        // In flight, the record holds what it held and desires what the
        // plan asks.
        if (const auto record = store_.find(reservation.workload))
            plan.freed = plan.freed + (record->allocated - core::allocationOf(record->actual.overlaidWith(record->desired)));
    }
    core::Amounts covered;
    for (const auto& [id, plan] : plans)
        covered = covered + core::Amounts{std::min(plan.reserved.cpuMillis, plan.freed.cpuMillis),
                                          std::min(plan.reserved.memory, plan.freed.memory)};
    return covered;
}

void InvariantCheck::check(std::string_view after)
{
    if (mode_ == Mode::Off)
        return;
    const auto broken = core::brokenInvariants(admittedState(), tolerances_);
    for (const auto& rule : broken)
        spdlog::error("invariant broken after {}: {}", after, rule);
    if (broken.empty())
        return;
    logAdmitted();
    if (mode_ == Mode::Abort)
        std::abort();
}

void InvariantCheck::logAdmitted()
{
    for (const auto& record : store_.workloads())
        if (record.holdsAllocation)
            spdlog::error("  {} holds {}m CPU, {} bytes (pod \"{}\", pool \"{}\")", record.name,
                          record.allocated.cpuMillis, record.allocated.memory, record.pod, record.pool());
    for (const auto& reservation : store_.reservations())
        spdlog::error("  {} reserves {}m CPU, {} bytes (plan {})", reservation.workload,
                      reservation.amounts.cpuMillis, reservation.amounts.memory, reservation.planId);
}

}  // namespace resized::service
