#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "latency_summary.h"

namespace resized::bench {

// 1. One way of changing a container's CPU limit, timed per call.
struct MethodLatency {
    std::string method;
    LatencySummary latency;
};

struct UpdateLatencyResult {
    // resized first; the ratios are against it.
    std::vector<MethodLatency> methods;
    // resized's own CPU time per UpdateResources call, all threads.
    Duration resizedCpuPerCall{};
    // GET /containers/{name}/json, the lookup resized makes when it does
    // not know a workload's container or cannot trust what it knows.
    LatencySummary podmanInspect;
    // Peer.Ping to resized on the same connection: the bus round trip alone.
    LatencySummary busRoundTrip;
};

// 2. Concurrent UpdateResources callers, each on its own connection and
//    container, for a fixed time.
struct ThroughputRun {
    std::size_t clients = 0;
    std::size_t calls = 0;
    double seconds = 0;
    LatencySummary latency;

    double callsPerSecond() const { return static_cast<double>(calls) / seconds; }
};

// 3. How long a restarted container runs before its desired limit is back.
struct ReapplyResult {
    LatencySummary fromStartEvent;
    // Negative where the limit was back before `podman restart` returned.
    LatencySummary fromRestartReturned;
    // From the first 1 ms poll that saw the new cgroup with its create-time
    // limit; 0 where no poll caught it.
    LatencySummary staleLimitVisible;
};

// 3b. What a restarted container's first instruction sees, without and
//     with the OCI hook.
struct FirstInstructionResult {
    std::size_t restarts = 0;
    std::size_t desiredFirstWithoutHook = 0;
    std::size_t desiredFirstWithHook = 0;
    // `podman restart -t 0` as a whole.
    LatencySummary restartWithoutHook;
    LatencySummary restartWithHook;
};

// 4 and 5. The daemon with a number of managed workloads.
struct ScaleRow {
    std::size_t runningWorkloads = 0;
    // Workloads whose container does not exist, written into the state
    // database while the daemon was stopped.
    std::size_t absentWorkloads = 0;
    LatencySummary startup;
    LatencySummary passCpu;
    LatencySummary passWall;
    std::uint64_t residentBytes = 0;
    // The anonymous part of residentBytes: the daemon's own, where the rest
    // is file pages (the binary and shared libraries) shared with others.
    std::uint64_t residentAnonymousBytes = 0;

    std::size_t workloads() const { return runningWorkloads + absentWorkloads; }
};

// 6. The daemon left alone.
struct IdleResult {
    std::size_t workloads = 0;
    double seconds = 0;
    Duration cpuTime{};
    std::uint64_t contextSwitches = 0;
};

// 7. The autoscaler: how soon a load is answered, and what sampling costs.
// The daemon's CPU while every one of `workloads` has a policy (recommend
// mode, interval 1 s), against its CPU without policies.
struct SamplingCost {
    std::size_t workloads = 0;
    double seconds = 0;
    Duration cpuTime{};
    Duration idleCpuPerSecond{};

    // The CPU one sample of one workload costs, the idle part taken out.
    Duration perSample() const
    {
        const double samples = seconds * static_cast<double>(workloads);
        const double idle = static_cast<double>(idleCpuPerSecond.count()) * seconds;
        return Duration(static_cast<Duration::rep>((static_cast<double>(cpuTime.count()) - idle) / samples));
    }
};

struct AutoscaleResult {
    // From a busy loop starting to the CPU quota rising.
    LatencySummary reaction;
    // With the testbed's containers.
    SamplingCost sampling;
    // With RESIZED_BENCH_RUNNING_CONTAINERS real running containers.
    std::optional<SamplingCost> samplingAtScale;
};

// 1c. An exclusive CPU slice given to a running container and given back.
struct SliceLatencyResult {
    // UpdateResources with ExclusiveCpus 1, and with 0, to the answer.
    LatencySummary grant;
    LatencySummary giveBack;
    // From the answer until every other container's cpuset is off the
    // slice, and back on every CPU.
    LatencySummary othersOff;
    LatencySummary othersBack;
    std::size_t otherContainers = 0;
};

struct Results {
    UpdateLatencyResult updateLatency;
    // 1b. A plan of two changes, from SubmitPlan until its PlanFinished.
    LatencySummary planLatency;
    SliceLatencyResult sliceLatency;
    std::vector<ThroughputRun> throughput;
    ReapplyResult reapply;
    FirstInstructionResult firstInstruction;
    IdleResult idle;
    AutoscaleResult autoscale;
    std::vector<ScaleRow> scale;
};

}  // namespace resized::bench
