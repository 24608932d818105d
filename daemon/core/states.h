#pragma once

#include <optional>
#include <string_view>

namespace resized::core {

// Whether the cgroup holds what resized last decided (design.md §1).
enum class SyncState { Unknown, Pending, Applying, Synchronized, DriftDetected, Failed };

// How the last requested change went.
enum class UpdateState { Unknown, Pending, Running, Success, Failed, Deferred, Infeasible };

std::string_view toString(SyncState state);
std::string_view toString(UpdateState state);
std::optional<SyncState> parseSyncState(std::string_view text);
std::optional<UpdateState> parseUpdateState(std::string_view text);

}  // namespace resized::core
