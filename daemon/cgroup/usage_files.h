#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string_view>
#include <vector>

#include "cgroup/cgroup_files.h"
#include "cgroup/limits_backend.h"

namespace resized::cgroup {

// What a read of UsageFiles reads besides the CPU counters: each is a
// read(2) a file, and sampling a thousand workloads is made of those.
struct UsageKinds {
    bool memory = true;
    // v1 keeps nr_throttled apart from the CPU time, in cpu.stat; v2 has
    // both in one file and reads it either way.
    bool throttling = true;
    bool pressure = true;
};

// The counter files of one cgroup, held open: reading them again is one
// pread(2) a file, with no path to resolve and nothing to open. Sampling a
// thousand workloads every second is made of these reads. A removed cgroup's
// files fail with ENODEV; whoever holds them opens the new cgroup's.
class UsageFiles {
public:
    // One counter of a file: the file's only number (key ""), or the value
    // of one key of a keyed file ("usage_usec 123"), times `scale`. A key
    // the file lacks reads as 0.
    struct Counter {
        std::string_view key;
        uint64_t scale = 1;
        uint64_t Usage::*field = nullptr;
    };

    // Which counters a file holds: the memory ones cost the most to read
    // (the kernel sums memory.stat afresh), and a caller that scales only
    // CPU can leave them out.
    enum class Kind { Cpu, Throttling, Memory };
    using Kinds = UsageKinds;

    // Opens `path`. A file that does not exist (a controller not enabled, a
    // counter an older kernel lacks) is left out when it is optional: its
    // counters read as 0. Throws CgroupError.
    void add(Kind kind, const std::filesystem::path& path, std::vector<Counter> counters, bool optional);
    // Opens a pressure file where there is one. Pressure is extra: a file
    // that is missing or does not read (PSI off: EOPNOTSUPP) leaves `field`
    // empty rather than failing the read.
    void addPressure(const std::filesystem::path& path, std::optional<PressureStall> Usage::*field);

    // What `kinds` leaves out reads as 0, or none. Throws CgroupError.
    Usage read(Kinds kinds = {}) const;

private:
    struct File {
        Kind kind;
        FileDescriptor descriptor;
        std::filesystem::path path;
        std::vector<Counter> counters;
    };
    struct PressureFile {
        FileDescriptor descriptor;
        std::filesystem::path path;
        std::optional<PressureStall> Usage::*field;
    };
    std::vector<File> files_;
    std::vector<PressureFile> pressureFiles_;
};

}  // namespace resized::cgroup
