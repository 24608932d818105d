#pragma once

#include <cstdint>
#include <filesystem>
#include <string_view>
#include <vector>

#include "cgroup/cgroup_files.h"
#include "cgroup/limits_backend.h"

namespace resized::cgroup {

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
    enum class Kind { Cpu, Memory };

    // Opens `path`. A file that does not exist (a controller not enabled, a
    // counter an older kernel lacks) is left out when it is optional: its
    // counters read as 0. Throws CgroupError.
    void add(Kind kind, const std::filesystem::path& path, std::vector<Counter> counters, bool optional);

    // The memory counters read as 0 unless `withMemory`. Throws CgroupError.
    Usage read(bool withMemory = true) const;

private:
    struct File {
        Kind kind;
        FileDescriptor descriptor;
        std::filesystem::path path;
        std::vector<Counter> counters;
    };
    std::vector<File> files_;
};

}  // namespace resized::cgroup
