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

// "cpu=1500m memory.max=512Mi", with memory as formatMemory() writes it;
// "none" for an empty set.
std::string describeLimits(const core::Resources& resources);

}  // namespace resized::ctl
