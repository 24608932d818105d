#pragma once

#include <optional>
#include <set>
#include <string>
#include <string_view>

namespace resized::core {

// A cpuset list as the kernel writes it: "0-3,6". The empty list is valid
// and means "no restriction" in the D-Bus API.
using CpuSet = std::set<unsigned>;

inline constexpr unsigned kMaxCpuIndex = 8191;

// nullopt for anything that is not a well-formed list (also ranges that run
// backwards and CPU numbers above kMaxCpuIndex).
std::optional<CpuSet> parseCpuSet(std::string_view text);
// Canonical form: ascending, merged ranges, no spaces.
std::string formatCpuSet(const CpuSet& cpus);

bool isSubset(const CpuSet& inner, const CpuSet& outer);
CpuSet intersection(const CpuSet& left, const CpuSet& right);
// The CPUs of `left` that are not in `right`.
CpuSet difference(const CpuSet& left, const CpuSet& right);

}  // namespace resized::core
