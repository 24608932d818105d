#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/resources.h"

namespace resized::ctl {

// Memory for people: the largest binary unit it reaches, whole when it is
// a whole number of that unit ("256Mi"), otherwise to one decimal
// ("23.3Gi"); below 1Ki plain bytes; UINT64_MAX "max". --json keeps the
// exact bytes.
std::string formatMemory(uint64_t bytes);

// formatMemory() in the style `typed` is written in, so that a message
// answers in the user's units: "4Mi" after "1Mi", "4m" after Podman's "1m"
// or "1mb", "4M" after systemd's "1M", plain bytes after plain bytes.
std::string formatMemoryLike(uint64_t bytes, std::string_view typed);

// `message` with each size the daemon writes in the largest unit that
// divides it ("97656250000Ki", "103372Ki") as formatMemory() writes it
// ("90.9Ti", "100.9Mi"); everything else as it is.
std::string readableSizes(std::string_view message);

// CPU in CPUs, exact to the millicore, as --cpus reads it: 1500 → "1.5",
// 2000 → "2", 350 → "0.35"; UINT64_MAX "max".
std::string formatCpus(uint64_t millis);

// "cpu=1500m memory.max=512Mi", with memory as formatMemory() writes it;
// "none" for an empty set.
std::string describeLimits(const core::Resources& resources);

}  // namespace resized::ctl
