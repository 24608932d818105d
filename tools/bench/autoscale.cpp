#include <algorithm>
#include <stdexcept>
#include <thread>

#include "phases.h"
#include "process_usage.h"

// 7. The autoscaler. Reaction: a container held at 100m with a policy
// (target 50 %, the default 1 s interval) starts a busy loop, and the
// cgroup's quota is polled every millisecond until it rises. Sampling cost:
// the daemon's CPU while every idle container has a policy in recommend
// mode, less what it uses idle, per workload and interval; with the
// testbed's containers, and with RESIZED_BENCH_RUNNING_CONTAINERS real ones.
namespace resized::bench {

namespace {

using namespace std::chrono_literals;

// Containers 17–21: none of the earlier phases' (0–16).
constexpr std::size_t kFirstReacting = 17;
constexpr Amount<std::size_t> kReactions{5, 1};
constexpr std::uint64_t kHeldMillis = 100;
constexpr auto kPollInterval = 1ms;
constexpr auto kReactionTimeout = 30s;
// Long enough for two samples: the CPU rate needs a previous one.
constexpr auto kFirstSamples = 2500ms;
constexpr Amount<std::chrono::milliseconds> kSamplingTime{10s, 1s};

core::autoscale::Policy cpuPolicy(core::autoscale::Mode mode)
{
    core::autoscale::Policy policy;
    policy.cpu = core::autoscale::Target{.utilizationPercent = 50, .min = kHeldMillis, .max = 1000};
    policy.mode = mode;
    return policy;
}

void podmanExec(const Testbed& testbed, std::size_t index, const std::vector<std::string>& command, bool detach)
{
    std::vector<std::string> arguments{"exec"};
    if (detach)
        arguments.push_back("--detach");
    arguments.push_back(testbed.containerName(index));
    arguments.insert(arguments.end(), command.begin(), command.end());
    if (!testbed.podman().run(arguments).succeeded())
        throw std::runtime_error("podman exec in " + testbed.containerName(index) + " failed");
}

// From the moment the busy loop runs (`podman exec --detach` returned) to
// the first poll that sees the quota above the held one.
Duration reactOnce(Testbed& testbed, ResizedBus& bus, std::size_t index)
{
    const std::string& name = testbed.containerName(index);
    bus.setCpuMillis(name, kHeldMillis);
    bus.setAutoscalePolicy(name, cpuPolicy(core::autoscale::Mode::Auto));
    std::this_thread::sleep_for(kFirstSamples);
    podmanExec(testbed, index, {"sh", "-c", "echo $$ > /tmp/load; while :; do :; done"}, true);
    const auto loaded = std::chrono::steady_clock::now();
    while (testbed.cpuQuotaUs(index).value_or(0) <= Testbed::cfsQuotaFor(kHeldMillis)) {
        if (std::chrono::steady_clock::now() - loaded > kReactionTimeout)
            throw std::runtime_error("the autoscaler did not raise " + name + "'s CPU");
        std::this_thread::sleep_for(kPollInterval);
    }
    const Duration reaction = std::chrono::steady_clock::now() - loaded;
    bus.removeAutoscalePolicy(name);
    podmanExec(testbed, index, {"sh", "-c", "kill $(cat /tmp/load)"}, false);
    bus.setCpuMillis(name, kHeldMillis);
    return reaction;
}

}  // namespace

SamplingCost measureSampling(Testbed& testbed, const std::vector<std::string>& workloads, const IdleResult& idle)
{
    ResizedBus bus;
    SamplingCost cost{.workloads = workloads.size(),
                      .seconds = 0,
                      .cpuTime = {},
                      .idleCpuPerSecond = std::chrono::duration_cast<Duration>(
                          idle.cpuTime / std::max(idle.seconds, 1e-9))};
    for (const auto& workload : workloads)
        bus.setAutoscalePolicy(workload, cpuPolicy(core::autoscale::Mode::Recommend));
    std::this_thread::sleep_for(kFirstSamples);
    const pid_t daemon = testbed.daemonPid();
    const ProcessUsage before = usageOf(daemon);
    const auto started = std::chrono::steady_clock::now();
    std::this_thread::sleep_for(kSamplingTime());
    const ProcessUsage after = usageOf(daemon);
    cost.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    cost.cpuTime = after.cpuTime - before.cpuTime;
    for (const auto& workload : workloads)
        bus.removeAutoscalePolicy(workload);
    return cost;
}

AutoscaleResult measureAutoscale(Testbed& testbed, const IdleResult& idle)
{
    ResizedBus bus;
    std::vector<Duration> reactions;
    for (std::size_t trial = 0; trial < kReactions(); ++trial)
        reactions.push_back(reactOnce(testbed, bus, kFirstReacting + trial));

    std::vector<std::string> workloads;
    for (std::size_t index = 0; index < Testbed::kContainerCount; ++index)
        workloads.push_back(testbed.containerName(index));
    return {.reaction = summarize(std::move(reactions)),
            .sampling = measureSampling(testbed, workloads, idle),
            .samplingAtScale = std::nullopt};
}

}  // namespace resized::bench
