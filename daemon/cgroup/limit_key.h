#pragma once

#include <string_view>

#include "core/resources.h"

namespace resized::cgroup {

// One key of core::Resources, so that the applier can write, order and
// restore keys one at a time.
enum class LimitKey { CpuMillis, CpuWeight, AllowedCpus, MemoryHigh, MemoryMax };

inline constexpr LimitKey kAllLimitKeys[] = {LimitKey::CpuMillis, LimitKey::CpuWeight,
                                             LimitKey::AllowedCpus, LimitKey::MemoryHigh,
                                             LimitKey::MemoryMax};

// The D-Bus key ("CpuMillis", …).
std::string_view keyName(LimitKey key);

bool names(const core::Resources& limits, LimitKey key);

// `limits` reduced to `key` (empty when it does not name it).
core::Resources only(const core::Resources& limits, LimitKey key);

// `value` with `key` set to what `source` holds for it.
core::Resources withKey(core::Resources value, LimitKey key, const core::Resources& source);

// Whether going from `from` to `to` lowers `key`; both must name it.
// kUnlimited is the largest number; a CPU list is lower when it is a strict
// subset, and the empty list (all CPUs) is the largest.
bool lowers(LimitKey key, const core::Resources& from, const core::Resources& to);

}  // namespace resized::cgroup
