#include <fstream>
#include <sstream>
#include <stdexcept>

#include "phases.h"
#include "support/podman_cli.h"
#include "support/wait.h"

// 3b. What a restarted container's first instruction sees: the container
// prints its own CFS quota before anything else, at every start. Without
// the OCI hook that is the create-time quota (the start event comes after);
// with it, the desired one. Each restart is `podman restart -t 0`, timed as
// a whole, so the hook's cost shows as well.
namespace resized::bench {

namespace {

constexpr std::uint64_t kCreateTimeMillis = 500;
constexpr std::uint64_t kDesiredMillis = 100;
constexpr Amount<std::size_t> kRestarts{20, 2};
constexpr auto kPrintTimeout = std::chrono::seconds(30);

const std::vector<std::string> kPrintQuotaThenIdle{
    "sh", "-c",
    "cat /sys/fs/cgroup/cpu/cpu.cfs_quota_us 2>/dev/null || cut -d' ' -f1 /sys/fs/cgroup/cpu.max; "
    "trap 'exit 0' TERM; while :; do sleep 1; done"};

std::vector<std::string> printedQuotas(const integration::PodmanCli& podman, const std::string& container)
{
    const auto result = podman.run({"logs", container});
    std::vector<std::string> lines;
    std::istringstream output(result.standardOutput);
    for (std::string line; std::getline(output, line);)
        lines.push_back(line);
    return lines;
}

std::filesystem::path writeHooksDirectory(const integration::TestEnvironment& environment)
{
    const auto directory = environment.directory / "bench-hooks";
    std::filesystem::create_directories(directory);
    std::ofstream(directory / "resized.json")
        << R"({"version":"1.0.0","hook":{"path":")" << OCI_HOOK_BINARY
        << R"(","env":["DBUS_SYSTEM_BUS_ADDRESS=)" << environment.busAddress
        << R"("]},"when":{"always":true},"stages":["createRuntime"]})";
    return directory;
}

// Restarts the container kRestarts times with `globalOptions` before
// `restart`; how many starts printed the desired quota first, and how long
// each restart took.
std::pair<std::size_t, LatencySummary> restartSeries(const integration::PodmanCli& podman,
                                                     const std::string& container,
                                                     const std::vector<std::string>& globalOptions)
{
    const std::size_t printedBefore = printedQuotas(podman, container).size();
    std::vector<Duration> durations;
    std::vector<std::string> printed;
    for (std::size_t count = 1; count <= kRestarts(); ++count) {
        std::vector<std::string> arguments = globalOptions;
        arguments.insert(arguments.end(), {"restart", "--time", "0", container});
        const auto started = std::chrono::steady_clock::now();
        if (!podman.run(arguments).succeeded())
            throw std::runtime_error("podman restart " + container + " failed");
        durations.push_back(std::chrono::steady_clock::now() - started);
        // `podman restart` returns before the first instruction has run; a
        // next restart right away could kill the container before it prints.
        integration::waitUntil(
            [&] {
                printed = printedQuotas(podman, container);
                return printed.size() >= printedBefore + count;
            },
            kPrintTimeout);
        if (printed.size() != printedBefore + count)
            throw std::runtime_error(container + ": after " + std::to_string(count) + " starts, " +
                                     std::to_string(printed.size() - printedBefore) + " printed their quota");
    }
    const std::string desired = std::to_string(Testbed::cfsQuotaFor(kDesiredMillis));
    std::size_t desiredFirst = 0;
    for (std::size_t line = printedBefore; line < printed.size(); ++line)
        desiredFirst += printed[line] == desired ? 1 : 0;
    return {desiredFirst, summarize(std::move(durations))};
}

}  // namespace

FirstInstructionResult measureFirstInstruction(Testbed& testbed)
{
    const std::string container = "bench-first-instruction";
    const integration::ScopedContainer scoped(
        testbed.podman(), container,
        {"--cpus", std::to_string(static_cast<double>(kCreateTimeMillis) / 1000)}, kPrintQuotaThenIdle);
    ResizedBus resized;
    if (resized.setCpuMillis(container, kDesiredMillis) != kDesiredMillis)
        throw std::runtime_error(container + ": resized answered with another CpuMillis than asked");

    const auto hooks = writeHooksDirectory(testbed.environment());
    FirstInstructionResult result;
    result.restarts = kRestarts();
    std::tie(result.desiredFirstWithoutHook, result.restartWithoutHook) =
        restartSeries(testbed.podman(), container, {});
    std::tie(result.desiredFirstWithHook, result.restartWithHook) =
        restartSeries(testbed.podman(), container, {"--hooks-dir", hooks.string()});
    return result;
}

}  // namespace resized::bench
