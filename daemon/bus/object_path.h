#pragma once

#include <string>
#include <string_view>

namespace resized::bus {

inline constexpr std::string_view kManagerPath = "/io/resized1";
inline constexpr std::string_view kWorkloadPathPrefix = "/io/resized1/workload/";

// Escapes like systemd's bus labels: [A-Za-z0-9] kept, every other byte as
// _xx in lower-case hex; the empty string is "_".
std::string escapeLabel(std::string_view name);

inline std::string workloadPath(std::string_view name)
{
    return std::string(kWorkloadPathPrefix) + escapeLabel(name);
}

}  // namespace resized::bus
