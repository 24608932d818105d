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

std::string_view toString(SyncState state);
std::string_view toString(UpdateState state);
std::optional<SyncState> parseSyncState(std::string_view text);
std::optional<UpdateState> parseUpdateState(std::string_view text);
std::string_view toString(RunState state);
std::optional<RunState> parseRunState(std::string_view text);
std::string_view toString(DisruptionReason reason);
std::optional<DisruptionReason> parseDisruptionReason(std::string_view text);

}  // namespace resized::core
