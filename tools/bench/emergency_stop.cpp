#include "emergency_stop.h"

#include <signal.h>
#include <unistd.h>

#include <atomic>

namespace resized::bench {

namespace {

std::atomic<pid_t> daemonToKill{0};
static_assert(std::atomic<pid_t>::is_always_lock_free, "read from a signal handler");

extern "C" void stopEverything(int signal)
{
    if (const pid_t pid = daemonToKill.load(); pid > 0)
        kill(pid, SIGKILL);
    _exit(128 + signal);
}

}  // namespace

void installEmergencyStop()
{
    struct sigaction action {};
    action.sa_handler = stopEverything;
    sigemptyset(&action.sa_mask);
    for (const int signal : {SIGTERM, SIGINT, SIGHUP})
        sigaction(signal, &action, nullptr);
}

void setDaemonToKill(pid_t pid)
{
    daemonToKill.store(pid);
}

}  // namespace resized::bench
