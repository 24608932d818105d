#pragma once

#include <vector>

#include "results.h"
#include "testbed.h"

namespace resized::bench {

// Each runs against the daemon the testbed has running, except
// measureScale(), which starts and stops daemons of its own.

// resized's UpdateResources, then `podman update` and Podman's REST update
// endpoint, on the same containers.
UpdateLatencyResult measureUpdateLatency(Testbed& testbed);

std::vector<ThroughputRun> measureThroughput(Testbed& testbed);

ReapplyResult measureReapply(Testbed& testbed);

// Starts its own container and uses the OCI hook of this build.
FirstInstructionResult measureFirstInstruction(Testbed& testbed);

// workloads: how many the running daemon manages, for the report.
IdleResult measureIdle(Testbed& testbed, std::size_t workloads);

std::vector<ScaleRow> measureScale(Testbed& testbed);

}  // namespace resized::bench
