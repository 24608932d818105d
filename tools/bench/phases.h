#pragma once

#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "results.h"
#include "testbed.h"

namespace resized::bench {

// RESIZED_BENCH_QUICK=1 (tools/bench/run.sh --quick, which CI runs): every
// phase runs, with small counts and short waits, so that all of the
// benchmark is exercised and cannot rot; its figures then say little.
inline bool quickRun()
{
    static const bool quick = [] {
        const char* value = std::getenv("RESIZED_BENCH_QUICK");
        return value && std::string_view(value) == "1";
    }();
    return quick;
}

// A count or a duration of a phase: `full` in a real run, `quick` in a
// quick one.
template <typename T>
struct Amount {
    T full;
    T quick;
    T operator()() const { return quickRun() ? quick : full; }
};

// Each runs against the daemon the testbed has running, except
// measureScale(), which starts and stops daemons of its own.

// resized's UpdateResources, then `podman update` and Podman's REST update
// endpoint, on the same containers.
UpdateLatencyResult measureUpdateLatency(Testbed& testbed);

// A plan of two changes moving CPU between two of those containers, from
// SubmitPlan until its PlanFinished.
LatencySummary measurePlanLatency(Testbed& testbed);

// Starts a daemon of its own with the CPU manager's static policy; the last
// phase of a run.
SliceLatencyResult measureSliceLatency(Testbed& testbed);

std::vector<ThroughputRun> measureThroughput(Testbed& testbed);

ReapplyResult measureReapply(Testbed& testbed);

// Starts its own container and uses the OCI hook of this build.
FirstInstructionResult measureFirstInstruction(Testbed& testbed);

// workloads: how many the running daemon manages, for the report.
IdleResult measureIdle(Testbed& testbed, std::size_t workloads);

// Sets and removes autoscale policies on the containers; `idle` is what the
// daemon costs without them.
AutoscaleResult measureAutoscale(Testbed& testbed, const IdleResult& idle);

// What sampling `workloads` once a second costs the running daemon, which
// costs `idle` without their policies.
SamplingCost measureSampling(Testbed& testbed, const std::vector<std::string>& workloads, const IdleResult& idle);

std::vector<ScaleRow> measureScale(Testbed& testbed);

// One row of measureScale(): restarts the daemon on stateDirectory a few
// times, then times sync passes and reads its memory.
ScaleRow measureDaemonAt(Testbed& testbed, std::size_t running, std::size_t absent,
                         const std::filesystem::path& stateDirectory);

struct ManyRunningResult {
    ScaleRow scale;
    SamplingCost sampling;
};

// The same with `count` real running containers, every one managed
// (RESIZED_BENCH_RUNNING_CONTAINERS), and the autoscaler sampling them all;
// creates and removes them itself.
ManyRunningResult measureManyRunning(Testbed& testbed, std::size_t count);

}  // namespace resized::bench
