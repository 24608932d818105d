#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/cpuset.h"

namespace resized::ctl {

// Command-line values as people write them, besides the CPU quantities of
// core/quantity.h. Each parser answers nullopt for text it does not
// understand; ranges are the daemon's to judge, so a value it refuses comes
// back as io.resized1.Error.InvalidArgument with its reason.

// A plain decimal integer: no sign, no blanks, no unit.
std::optional<uint64_t> parseUnsignedArgument(std::string_view text);
// CPUs as `podman update --cpus` reads them, in millicores: what
// core::parseCpuMillis reads ("1.5", "1500m", "max"), and a decimal finer
// than a millicore ("1.23456", which Podman turns into a 123456 µs quota
// per 100 ms), rounded to the nearest millicore and at least 1m, since
// resized keeps CPU limits in whole millicores.
std::optional<uint64_t> parsePodmanCpus(std::string_view text);
// A plain integer, as cgroup v2 writes cpu.weight.
std::optional<uint64_t> parseCpuWeightArgument(std::string_view text);
// A cpuset list such as 0-3,6; "" and "all" mean every CPU (the empty set).
std::optional<core::CpuSet> parseCpusArgument(std::string_view text);
// A systemd-style time span: "5s", "500ms", "1min 30s", "1h30min", "2d",
// "1w"; a bare number is seconds.
std::optional<std::chrono::microseconds> parseTimespan(std::string_view text);

// Memory as `podman update --memory` reads it (b, k, m, g, t, p in either
// case, optionally followed by "b" or "ib", all powers of 1024; "1.5g" is
// cut to whole bytes as Podman does) and as Kubernetes writes it (Ki, Mi,
// Gi, Ti, Pi, Ei); "max" or "infinity" for no limit.
std::optional<uint64_t> parseMemoryArgument(std::string_view text);

// `--cpu-shares` as a cgroup v2 CPU weight, converted the way crun converts
// an OCI cpu.shares for cpu.weight: 2..262144 onto 1..10000 along a curve
// that keeps the defaults together (1024 → 100). Zero, which Podman reads as
// "leave as it is", is not a value here.
std::optional<uint64_t> parseCpuSharesArgument(std::string_view text);
uint64_t cpuWeightForShares(uint64_t shares);

// systemd's parse_size() with base 1024, as `systemctl set-property` reads
// MemoryMax= and friends: K, M, G, T, P, E are powers of 1024, B or nothing
// bytes; a fraction is cut to whole bytes; parts add up in descending
// order ("1G 512M").
std::optional<uint64_t> parseSystemdSize(std::string_view text);
// systemd's parse_permyriad_unbounded(): "150%", "12.5%", "12.34%", "125‰",
// "1250‱" as parts per ten thousand (15000, 1250, 1234, 1250, 1250).
std::optional<uint64_t> parseSystemdPermyriad(std::string_view text);

}  // namespace resized::ctl
