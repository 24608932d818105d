#include "failpoint/failpoint.h"

#include <signal.h>
#include <unistd.h>

#include <cstdlib>

#include "build_config.h"

namespace resized {

void failpoint([[maybe_unused]] std::string_view name)
{
#if RESIZED_FAILPOINTS
    const char* armed = std::getenv("RESIZED_FAILPOINT");
    if (armed && name == armed)
        kill(getpid(), SIGKILL);
#endif
}

}  // namespace resized
