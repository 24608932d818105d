#pragma once

#include <optional>
#include <string_view>

namespace resized::core {

// Whether the cgroup holds what resized last decided (design.md §1).
enum class SyncState { Unknown, Pending, Applying, Synchronized, DriftDetected, Failed };

// How the last requested change went.
enum class UpdateState { Unknown, Pending, Running, Success, Failed, Deferred, Infeasible };

// Where a workload's container (pod, unit) is in its life, as last seen.
// Running and paused workloads have a cgroup; the others do not.
enum class RunState { Unknown, Running, Paused, Stopped, Removed };

// Why a workload is lowered, as disruption budgets count it (design.md
// §1b): a caller's change, the autoscaler's, a plan's.
enum class DisruptionReason { Manual, Autoscale, Plan };

// Where a plan is in its life (design.md §1b), and why it ended as it did
// (None while pending or running, and when it succeeded or was cancelled).
enum class PlanState { Pending, Running, Succeeded, Failed, Rejected, Cancelled };
enum class PlanReason { None, Churn, Budget, Capacity, Infeasible, Apply };

std::string_view toString(SyncState state);
std::string_view toString(UpdateState state);
std::optional<SyncState> parseSyncState(std::string_view text);
std::optional<UpdateState> parseUpdateState(std::string_view text);
std::string_view toString(RunState state);
std::optional<RunState> parseRunState(std::string_view text);
std::string_view toString(DisruptionReason reason);
std::optional<DisruptionReason> parseDisruptionReason(std::string_view text);
std::string_view toString(PlanState state);
std::optional<PlanState> parsePlanState(std::string_view text);
std::string_view toString(PlanReason reason);
std::optional<PlanReason> parsePlanReason(std::string_view text);

}  // namespace resized::core
