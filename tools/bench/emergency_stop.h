#pragma once

#include <sys/types.h>

namespace resized::bench {

// with-testenv.sh ends the benchmark with SIGTERM when it is interrupted; no
// destructor runs then, so the daemon the benchmark started would be left
// behind. These handlers SIGKILL it first; the wrapper removes the
// containers itself.
void installEmergencyStop();

// The daemon to kill on such a signal; 0 when none runs.
void setDaemonToKill(pid_t pid);

}  // namespace resized::bench
