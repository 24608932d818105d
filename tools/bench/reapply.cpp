#include <signal.h>
#include <sys/wait.h>

#include <optional>
#include <stdexcept>
#include <thread>

#include "phases.h"
#include "podman_rest.h"
#include "support/spawn.h"

// 3. A container restart brings back its create-time limits (Podman 4 does
// not keep an update); resized re-applies the desired ones on the `start`
// event. While `podman restart -t 0` runs, the cgroup file is polled every
// 1 ms; the desired value counts as back at the first poll that sees it
// after a poll saw the create-time value (or no cgroup at all).
namespace resized::bench {

namespace {

constexpr std::size_t kContainer = 16;
constexpr std::uint64_t kDesiredMillis = 100;
constexpr std::int64_t kDesiredQuotaUs = Testbed::cfsQuotaFor(kDesiredMillis);
constexpr Amount<std::size_t> kRestarts{50, 2};
constexpr auto kPollInterval = std::chrono::milliseconds(1);
constexpr auto kRestartTimeout = std::chrono::seconds(30);

using WallClock = std::chrono::system_clock;

struct Restart {
    WallClock::time_point requested;
    // Unset where no poll caught the new cgroup before the limit was back.
    std::optional<WallClock::time_point> staleSeen;
    WallClock::time_point returned;
    WallClock::time_point desiredBack;
};

pid_t spawnRestart(const std::string& container)
{
    integration::SpawnFileActions quiet;
    quiet.openNull(STDIN_FILENO);
    quiet.openNull(STDOUT_FILENO);
    quiet.openNull(STDERR_FILENO);
    return integration::spawnProcess({"podman", "restart", "--time", "0", container}, quiet);
}

// True once the child has ended; throws if it failed.
bool ended(pid_t child, const std::string& container)
{
    int status = 0;
    const pid_t reaped = waitpid(child, &status, WNOHANG);
    if (reaped == 0)
        return false;
    if (reaped != child || integration::exitStatusOf(status) != 0)
        throw std::runtime_error("podman restart " + container + " failed");
    return true;
}

Restart restartOnce(const Testbed& testbed)
{
    const std::string& container = testbed.containerName(kContainer);
    Restart restart{};
    restart.requested = WallClock::now();
    const pid_t child = spawnRestart(container);
    bool returned = false;
    // The old cgroup went away or the new one showed up; only a desired
    // value seen after that is the re-applied one.
    bool restarted = false;
    bool desiredBack = false;
    const auto deadline = std::chrono::steady_clock::now() + kRestartTimeout;
    while (!returned || !desiredBack) {
        if (std::chrono::steady_clock::now() > deadline) {
            if (!returned) {
                kill(child, SIGKILL);
                integration::waitForExit(child);
            }
            throw std::runtime_error(container + ": desired limit not back after a restart");
        }
        if (!returned && ended(child, container)) {
            returned = true;
            restart.returned = WallClock::now();
        }
        if (!desiredBack) {
            const auto quota = testbed.cpuQuotaUs(kContainer);
            const bool desired = quota == kDesiredQuotaUs;
            restarted = restarted || !desired;
            if (quota && !desired && !restart.staleSeen)
                restart.staleSeen = WallClock::now();
            if (restarted && desired) {
                desiredBack = true;
                restart.desiredBack = WallClock::now();
            }
        }
        std::this_thread::sleep_for(kPollInterval);
    }
    return restart;
}

}  // namespace

ReapplyResult measureReapply(Testbed& testbed)
{
    ResizedBus resized;
    const std::string& container = testbed.containerName(kContainer);
    if (resized.setCpuMillis(container, kDesiredMillis) != kDesiredMillis)
        throw std::runtime_error(container + ": resized answered with another CpuMillis than asked");

    PodmanRest rest(testbed.environment().podmanSocket);
    std::vector<Duration> fromStartEvent;
    std::vector<Duration> fromRestartReturned;
    std::vector<Duration> staleVisible;
    for (std::size_t count = 0; count < kRestarts(); ++count) {
        const Restart restart = restartOnce(testbed);
        const auto starts = rest.startEvents(container, restart.requested);
        if (starts.size() != 1)
            throw std::runtime_error(container + ": " + std::to_string(starts.size()) +
                                     " start events for one restart");
        fromStartEvent.push_back(restart.desiredBack - starts.front());
        fromRestartReturned.push_back(restart.desiredBack - restart.returned);
        staleVisible.push_back(restart.desiredBack - restart.staleSeen.value_or(restart.desiredBack));
    }
    return {
        .fromStartEvent = summarize(fromStartEvent),
        .fromRestartReturned = summarize(fromRestartReturned),
        .staleLimitVisible = summarize(staleVisible),
    };
}

}  // namespace resized::bench
