#pragma once

#include "core/resources.h"

namespace resized::test {

// A set that names every key of the contract, each at a valid value.
inline core::Resources everyResourceKey()
{
    return {.cpuMillis = 1500,
            .memoryMax = 512ull << 20,
            .memoryHigh = 384ull << 20,
            .cpuWeight = 100,
            .allowedCpus = core::CpuSet{0, 1},
            .exclusiveCpus = 2};
}

}  // namespace resized::test
