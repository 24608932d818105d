#pragma once

#include <string>
#include <vector>

#include "results.h"
#include "testbed.h"

namespace resized::bench {

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
