#include "service/workloads/invariant_check.h"

#include <spdlog/spdlog.h>

#include <cstdlib>
#include <string>

namespace resized::service {

InvariantCheck::InvariantCheck(store::StateStore& store, const core::Amounts& capacity, core::CpuSet reservedCpus)
    : store_(store), capacity_(capacity), reservedCpus_(std::move(reservedCpus)), mode_(modeFromEnvironment())
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
    state.node = {{}, capacity_, store_.allocatedOutsideHeldPods(), store_.reservedTotal()};
    for (const auto& pool : store_.pools())
        state.pools.push_back(
            {pool.name, pool.cap, store_.poolAllocatedOutsideHeldPods(pool.name), store_.poolReserved(pool.name)});
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

void InvariantCheck::check(std::string_view after)
{
    if (mode_ == Mode::Off)
        return;
    const auto broken = core::brokenInvariants(admittedState(), tolerances_);
    for (const auto& rule : broken)
        spdlog::error("invariant broken after {}: {}", after, rule);
    if (!broken.empty() && mode_ == Mode::Abort)
        std::abort();
}

}  // namespace resized::service
