#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace resized::bus {

inline constexpr std::string_view kManagerPath = "/io/resized1";
inline constexpr char kWorkloadPathParent[] = "/io/resized1/workload";
inline constexpr char kPoolPathParent[] = "/io/resized1/pool";
inline constexpr std::string_view kPlanPathParent = "/io/resized1/plan";

// kWorkloadPathParent/<name escaped as a systemd bus label>
// (sd_bus_path_encode): [A-Za-z0-9] kept, except a leading digit, and every
// other byte as _xx in lower-case hex; the empty name is "_".
std::string workloadPath(std::string_view name);
// kPoolPathParent/<name escaped the same way>.
std::string poolPath(std::string_view name);
// kPlanPathParent/<id in decimal>.
std::string planPath(int64_t id);

}  // namespace resized::bus
