#include "core/states.h"

#include <array>
#include <utility>

namespace resized::core {
namespace {

constexpr std::array<std::pair<SyncState, std::string_view>, 6> kSyncStateNames{{
    {SyncState::Unknown, "unknown"},
    {SyncState::Pending, "pending"},
    {SyncState::Applying, "applying"},
    {SyncState::Synchronized, "synchronized"},
    {SyncState::DriftDetected, "drift_detected"},
    {SyncState::Failed, "failed"},
}};

constexpr std::array<std::pair<UpdateState, std::string_view>, 7> kUpdateStateNames{{
    {UpdateState::Unknown, "unknown"},
    {UpdateState::Pending, "pending"},
    {UpdateState::Running, "running"},
    {UpdateState::Success, "success"},
    {UpdateState::Failed, "failed"},
    {UpdateState::Deferred, "deferred"},
    {UpdateState::Infeasible, "infeasible"},
}};

constexpr std::array<std::pair<RunState, std::string_view>, 5> kRunStateNames{{
    {RunState::Unknown, "unknown"},
    {RunState::Running, "running"},
    {RunState::Paused, "paused"},
    {RunState::Stopped, "stopped"},
    {RunState::Removed, "removed"},
}};

constexpr std::array<std::pair<DisruptionReason, std::string_view>, 3> kDisruptionReasonNames{{
    {DisruptionReason::Manual, "manual"},
    {DisruptionReason::Autoscale, "autoscale"},
    {DisruptionReason::Plan, "plan"},
}};

constexpr std::array<std::pair<PlanState, std::string_view>, 6> kPlanStateNames{{
    {PlanState::Pending, "pending"},
    {PlanState::Running, "running"},
    {PlanState::Succeeded, "succeeded"},
    {PlanState::Failed, "failed"},
    {PlanState::Rejected, "rejected"},
    {PlanState::Cancelled, "cancelled"},
}};

constexpr std::array<std::pair<PlanReason, std::string_view>, 6> kPlanReasonNames{{
    {PlanReason::None, ""},
    {PlanReason::Churn, "churn"},
    {PlanReason::Budget, "budget"},
    {PlanReason::Capacity, "capacity"},
    {PlanReason::Infeasible, "infeasible"},
    {PlanReason::Apply, "apply"},
}};

template <typename Enum, size_t N>
std::string_view nameOf(const std::array<std::pair<Enum, std::string_view>, N>& names, Enum value)
{
    for (const auto& [candidate, name] : names)
        if (candidate == value)
            return name;
    return "unknown";
}

template <typename Enum, size_t N>
std::optional<Enum> valueOf(const std::array<std::pair<Enum, std::string_view>, N>& names,
                            std::string_view text)
{
    for (const auto& [value, name] : names)
        if (name == text)
            return value;
    return std::nullopt;
}

}  // namespace

std::string_view toString(SyncState state) { return nameOf(kSyncStateNames, state); }
std::string_view toString(UpdateState state) { return nameOf(kUpdateStateNames, state); }
std::optional<SyncState> parseSyncState(std::string_view text) { return valueOf(kSyncStateNames, text); }
std::optional<UpdateState> parseUpdateState(std::string_view text) { return valueOf(kUpdateStateNames, text); }
std::string_view toString(RunState state) { return nameOf(kRunStateNames, state); }
std::optional<RunState> parseRunState(std::string_view text) { return valueOf(kRunStateNames, text); }
std::string_view toString(DisruptionReason reason) { return nameOf(kDisruptionReasonNames, reason); }
std::optional<DisruptionReason> parseDisruptionReason(std::string_view text)
{
    return valueOf(kDisruptionReasonNames, text);
}

std::string_view toString(PlanState state) { return nameOf(kPlanStateNames, state); }
std::optional<PlanState> parsePlanState(std::string_view text) { return valueOf(kPlanStateNames, text); }
std::string_view toString(PlanReason reason) { return nameOf(kPlanReasonNames, reason); }
std::optional<PlanReason> parsePlanReason(std::string_view text) { return valueOf(kPlanReasonNames, text); }

}  // namespace resized::core
