#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>

namespace resized::bench {

// What a process has consumed so far, summed over all its threads.
struct ProcessUsage {
    // Time on a CPU, user and kernel, from /proc/PID/task/*/schedstat: in
    // nanoseconds, where utime + stime of /proc/PID/stat count 10 ms ticks,
    // too coarse for one sync pass.
    std::chrono::nanoseconds cpuTime{};
    // Voluntary and involuntary: how often the process was scheduled out.
    std::uint64_t contextSwitches = 0;
};

ProcessUsage usageOf(pid_t pid);

struct ResidentMemory {
    std::uint64_t total = 0;      // VmRSS
    std::uint64_t anonymous = 0;  // RssAnon
};

ResidentMemory residentMemoryOf(pid_t pid);

}  // namespace resized::bench
