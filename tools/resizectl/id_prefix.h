#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace resized::ctl {

// A workload as its object names it: (Name, ContainerId).
using WorkloadContainer = std::pair<std::string, std::string>;

// The daemon resolves a container ID from 12 hex digits on (design §1b).
inline constexpr size_t kDaemonIdPrefixLength = 12;

// Whether `typed` may be a short container ID for resizectl to expand, as
// Podman takes any unique prefix: 1 to 11 lower-case hex digits.
bool isShortIdPrefix(std::string_view typed);

// The workloads whose container ID begins with `prefix`; none when one of
// them is named `prefix`, since a name wins over an ID.
std::vector<WorkloadContainer> idPrefixMatches(std::string_view prefix,
                                               const std::vector<WorkloadContainer>& workloads);

}  // namespace resized::ctl
