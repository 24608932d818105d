#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "cgroup/limits_backend.h"

namespace resized::cgroup {

inline constexpr std::string_view kDefaultCgroupRoot = "/sys/fs/cgroup";

enum class CgroupVersion { V1, V2 };

// v2 when `root` itself is a cgroup2 mount. Anything else is v1: in hybrid
// mode the cpu and memory controllers live in the v1 hierarchies, and the
// cgroup2 mount beside them has none. Throws CgroupError if `root` cannot be
// examined.
CgroupVersion detectCgroupVersion(const std::filesystem::path& root = kDefaultCgroupRoot);

// "v1" or "v2", as the CgroupVersion property reports it.
std::string_view versionName(CgroupVersion version);

// Why the cgroups under `root` tell no pressure stalls (PSI) of their own,
// for an error that names it; nullopt when they do.
std::optional<std::string> pressureUnavailable(const std::filesystem::path& root = kDefaultCgroupRoot);

// The cgroupfs backend for the layout found at `root`.
std::unique_ptr<LimitsBackend> makeCgroupfsBackend(const std::filesystem::path& root = kDefaultCgroupRoot);

}  // namespace resized::cgroup
