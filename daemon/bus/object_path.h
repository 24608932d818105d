#pragma once

#include <string>
#include <string_view>

namespace resized::bus {

inline constexpr std::string_view kManagerPath = "/io/resized1";
inline constexpr char kWorkloadPathParent[] = "/io/resized1/workload";
inline constexpr char kPoolPathParent[] = "/io/resized1/pool";

// kWorkloadPathParent/<name escaped as a systemd bus label>
// (sd_bus_path_encode): [A-Za-z0-9] kept, except a leading digit, and every
// other byte as _xx in lower-case hex; the empty name is "_".
std::string workloadPath(std::string_view name);
// kPoolPathParent/<name escaped the same way>.
std::string poolPath(std::string_view name);

}  // namespace resized::bus
