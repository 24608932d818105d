#pragma once

#include <string_view>

namespace resized {

// Crash injection for the crash-consistency tests: when the daemon was built
// with -Dfailpoints=true and RESIZED_FAILPOINT names this point, the process
// kills itself with SIGKILL right here, as a power cut or OOM kill would.
void failpoint(std::string_view name);

}  // namespace resized
