#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace resized::core {

// Quantities as people write them, Kubernetes style. Used by resizectl and by
// log and error messages; the D-Bus API itself carries plain integers.

// "1.5" → 1500, "250m" → 250, "2" → 2000, "max" → kUnlimited.
std::optional<uint64_t> parseCpuMillis(std::string_view text);
// "512Mi", "2G", "1048576", "1.5Gi", "max" → bytes.
std::optional<uint64_t> parseBytes(std::string_view text);

// 1500 → "1500m", 2000 → "2", kUnlimited → "max".
std::string formatCpuMillis(uint64_t millis);
// Largest binary unit that divides evenly: 536870912 → "512Mi"; kUnlimited → "max".
std::string formatBytes(uint64_t bytes);

}  // namespace resized::core
