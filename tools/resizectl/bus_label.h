#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace resized::ctl {

inline constexpr std::string_view kManagerPath = "/io/resized1";
inline constexpr std::string_view kWorkloadPathPrefix = "/io/resized1/workload/";

// The workload a /io/resized1/workload/<label> object stands for. The label
// is escaped as systemd escapes bus labels: every byte outside [A-Za-z0-9]
// is "_xx" in hex. nullopt for any other path or a malformed label.
std::optional<std::string> workloadNameFromPath(std::string_view path);

}  // namespace resized::ctl
