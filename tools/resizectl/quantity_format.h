#pragma once

#include <cstdint>
#include <string>

#include "core/resources.h"

namespace resized::ctl {

// Memory for people: the largest binary unit it reaches, whole when it is
// a whole number of that unit ("256Mi"), otherwise to one decimal
// ("23.3Gi"); below 1Ki plain bytes; UINT64_MAX "max". --json keeps the
// exact bytes.
std::string formatMemory(uint64_t bytes);

// CPU in CPUs, exact to the millicore, as --cpus reads it: 1500 → "1.5",
// 2000 → "2", 350 → "0.35"; UINT64_MAX "max".
std::string formatCpus(uint64_t millis);

// "cpu=1500m memory.max=512Mi", with memory as formatMemory() writes it;
// "none" for an empty set.
std::string describeLimits(const core::Resources& resources);

}  // namespace resized::ctl
