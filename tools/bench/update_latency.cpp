#include <array>
#include <chrono>
#include <functional>
#include <iomanip>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "phases.h"
#include "podman_rest.h"
#include "process_usage.h"
#include "support/command.h"

// 1. The round trip of one CPU limit change, three ways, on the same five
// running containers: each call alternates its container between two
// values, so every call is a real change, and after every call the cgroup
// file is checked (outside the timed part) to hold the new value.
namespace resized::bench {

namespace {

constexpr std::size_t kContainers = 5;
constexpr std::size_t kWarmUpCalls = 2 * kContainers;
constexpr Amount<std::size_t> kResizedCalls{500, 10};
constexpr Amount<std::size_t> kPodmanCliCalls{50, 3};
constexpr Amount<std::size_t> kRestCalls{200, 5};
constexpr std::array<std::uint64_t, 2> kCpuMillis{100, 150};
// RuntimeWatcher::kHealthyAfter, and a margin.
constexpr std::chrono::milliseconds kEventStreamProvenAfter{2'500};

using SetCpu = std::function<void(const std::string& container, std::uint64_t millis)>;

std::string asCpus(std::uint64_t millis)
{
    std::ostringstream text;
    text << std::fixed << std::setprecision(3) << static_cast<double>(millis) / 1000.0;
    return text.str();
}

// Whether the container's cgroup holds `millis` after a call, read outside
// the timed part. A start event of a container created just before the
// daemon started may still be handled while the first calls run, and its
// repair write the value once more: a short wait, not a verdict.
bool holdsSoon(Testbed& testbed, std::size_t container, std::uint64_t millis)
{
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
    while (testbed.cpuQuotaUs(container) != Testbed::cfsQuotaFor(millis)) {
        if (std::chrono::steady_clock::now() > deadline)
            return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return true;
}

// `count` calls timed, after kWarmUpCalls that are not, or as many more
// rounds over the containers as `warmUp` lasts.
std::vector<Duration> timeCalls(Testbed& testbed, std::size_t count, const SetCpu& setCpu,
                                std::chrono::steady_clock::duration warmUp = {})
{
    std::vector<Duration> samples;
    const auto warmUpEnds = std::chrono::steady_clock::now() + warmUp;
    std::size_t warmUpCalls = kWarmUpCalls;
    for (std::size_t call = 0; call < warmUpCalls + count; ++call) {
        if (call + 1 == warmUpCalls && std::chrono::steady_clock::now() < warmUpEnds)
            warmUpCalls += kContainers;
        const std::size_t container = call % kContainers;
        const std::uint64_t millis = kCpuMillis[(call / kContainers) % kCpuMillis.size()];
        const auto started = std::chrono::steady_clock::now();
        setCpu(testbed.containerName(container), millis);
        const auto finished = std::chrono::steady_clock::now();
        if (!holdsSoon(testbed, container, millis))
            throw std::runtime_error(testbed.containerName(container) + ": the cgroup does not hold " +
                                     std::to_string(millis) + " millicores after the call");
        if (call >= warmUpCalls)
            samples.push_back(finished - started);
    }
    return samples;
}

}  // namespace

UpdateLatencyResult measureUpdateLatency(Testbed& testbed)
{
    ResizedBus resized;
    const SetCpu viaBus = [&](const std::string& name, std::uint64_t millis) {
        if (resized.setCpuMillis(name, millis) != millis)
            throw std::runtime_error(name + ": resized answered with another CpuMillis than asked");
    };
    // The steady state: until Podman's event stream has shown it stays open
    // (its first event, or kEventStreamProvenAfter) the daemon asks Podman
    // on every call, which the warm-up's calls leave behind.
    timeCalls(testbed, 0, viaBus, kEventStreamProvenAfter);
    const ProcessUsage before = usageOf(testbed.daemonPid());
    const auto viaResized = timeCalls(testbed, kResizedCalls(), viaBus);
    const Duration resizedCpu = usageOf(testbed.daemonPid()).cpuTime - before.cpuTime;

    std::vector<Duration> pings;
    for (std::size_t call = 0; call < kWarmUpCalls + kResizedCalls(); ++call) {
        const auto started = std::chrono::steady_clock::now();
        resized.ping();
        if (call >= kWarmUpCalls)
            pings.push_back(std::chrono::steady_clock::now() - started);
    }

    const auto viaPodmanCli = timeCalls(testbed, kPodmanCliCalls(), [](const std::string& name, std::uint64_t millis) {
        const auto result = integration::runCommand({"podman", "update", "--cpus", asCpus(millis), name});
        if (!result.succeeded())
            throw std::runtime_error("podman update " + name + ": " + result.standardError);
    });

    PodmanRest rest(testbed.environment().podmanSocket);
    const auto viaRest = timeCalls(testbed, kRestCalls(), [&](const std::string& name, std::uint64_t millis) {
        rest.updateCpuQuota(name, Testbed::cfsQuotaFor(millis), Testbed::kCfsPeriodUs);
    });

    std::vector<Duration> inspections;
    for (std::size_t call = 0; call < kRestCalls(); ++call) {
        const auto started = std::chrono::steady_clock::now();
        rest.inspect(testbed.containerName(call % kContainers));
        inspections.push_back(std::chrono::steady_clock::now() - started);
    }

    return {
        .methods = {{"resized `UpdateResources` (D-Bus)", summarize(viaResized)},
                    {"`podman update --cpus` (CLI)", summarize(viaPodmanCli)},
                    {"Podman REST `POST …/update` (libcurl, kept-alive)", summarize(viaRest)}},
        .resizedCpuPerCall = resizedCpu / (kWarmUpCalls + kResizedCalls()),
        .podmanInspect = summarize(inspections),
        .busRoundTrip = summarize(pings),
    };
}

}  // namespace resized::bench
