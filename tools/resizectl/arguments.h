#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace resized::ctl {

// Command-line values as people write them, besides the quantities of
// core/quantity.h. Each parser answers nullopt for text it does not
// understand; ranges are the daemon's to judge, so a value it refuses comes
// back as io.resized1.Error.InvalidArgument with its reason.

// A plain integer, as cgroup v2 writes cpu.weight.
std::optional<uint64_t> parseCpuWeightArgument(std::string_view text);
// A cpuset list, answered in canonical form; "" and "all" mean every CPU.
std::optional<std::string> parseCpusArgument(std::string_view text);
// A systemd-style time span: "5s", "500ms", "1min 30s", "2h"; a bare number
// is seconds.
std::optional<std::chrono::microseconds> parseTimespan(std::string_view text);

}  // namespace resized::ctl
