#pragma once

#include <cstdint>
#include <optional>

#include "core/resources.h"

namespace resized::ctl {

// Resources naming CPU and/or memory only; designated initializers would
// have to spell out every other member under -Wmissing-field-initializers.
inline core::Resources cpuAndMemory(std::optional<uint64_t> cpuMillis, std::optional<uint64_t> memoryMax)
{
    core::Resources resources;
    resources.cpuMillis = cpuMillis;
    resources.memoryMax = memoryMax;
    return resources;
}

}  // namespace resized::ctl
