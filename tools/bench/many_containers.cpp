#include <stdexcept>

#include "phases.h"
#include "support/spawn.h"

// 4–5 and 7 at full size: the sync pass, memory and start-up with as many
// real running containers as asked (busybox `sleep`), every one managed with
// a memory limit of its own, and the autoscaler sampling all of them. Creating a thousand takes this machine about ten
// minutes, so the row is measured only when asked for.
namespace resized::bench {

namespace {

// podman processes at a time: Podman serialises much of a creation anyway.
constexpr std::size_t kParallelPodmans = 4;
constexpr std::size_t kNamesPerRemoval = 100;
// Far below what busybox `sleep` would ever use, and a thousand of them
// within the node's memory; no CPU limit, which the node's two CPUs would
// not hold a thousand times.
constexpr std::uint64_t kMemoryMax = 8ull << 20;

std::string nameOf(std::size_t index)
{
    return "bench-many-" + std::to_string(index);
}

// Runs the commands, kParallelPodmans at a time; throws when one fails.
void runAll(const std::vector<std::vector<std::string>>& commands)
{
    integration::SpawnFileActions quiet;
    quiet.openNull(STDIN_FILENO);
    quiet.openNull(STDOUT_FILENO);
    quiet.openNull(STDERR_FILENO);
    std::vector<pid_t> running;
    bool failed = false;
    const auto waitOne = [&] {
        failed |= integration::waitForExit(running.front()) != 0;
        running.erase(running.begin());
    };
    for (const auto& command : commands) {
        if (running.size() == kParallelPodmans)
            waitOne();
        running.push_back(integration::spawnProcess(command, quiet));
    }
    while (!running.empty())
        waitOne();
    if (failed)
        throw std::runtime_error("a podman command of the many-containers run failed");
}

// The containers exist from construction to destruction.
class ManyContainers {
public:
    ManyContainers(const Testbed& testbed, std::size_t count) : count_(count)
    {
        std::vector<std::vector<std::string>> runs;
        for (std::size_t index = 0; index < count; ++index)
            runs.push_back({"podman", "run", "-d", "--name", nameOf(index), testbed.environment().image, "sleep",
                            "1000000"});
        try {
            runAll(runs);
        } catch (...) {
            removeAll();
            throw;
        }
    }
    ~ManyContainers() { removeAll(); }
    ManyContainers(const ManyContainers&) = delete;
    ManyContainers& operator=(const ManyContainers&) = delete;

private:
    void removeAll() noexcept
    {
        std::vector<std::vector<std::string>> removals;
        for (std::size_t first = 0; first < count_; first += kNamesPerRemoval) {
            std::vector<std::string> command{"podman", "rm", "--force", "--ignore", "--time", "0"};
            for (std::size_t index = first; index < std::min(count_, first + kNamesPerRemoval); ++index)
                command.push_back(nameOf(index));
            removals.push_back(std::move(command));
        }
        try {
            runAll(removals);
        } catch (const std::exception&) {
            // with-testenv.sh removes whatever is left.
        }
    }

    std::size_t count_;
};

}  // namespace

ManyRunningResult measureManyRunning(Testbed& testbed, std::size_t count)
{
    const ManyContainers containers(testbed, count);
    const auto stateDirectory = testbed.stateDirectory("many-running");
    testbed.startDaemon(stateDirectory);
    std::vector<std::string> names;
    {
        ResizedBus resized;
        for (std::size_t index = 0; index < count; ++index) {
            names.push_back(nameOf(index));
            if (resized.update(names.back(), {.memoryMax = kMemoryMax}).memoryMax != kMemoryMax)
                throw std::runtime_error(names.back() + ": not managed");
        }
    }
    const IdleResult idle = measureIdle(testbed, count);
    const SamplingCost sampling = measureSampling(testbed, names, idle);
    testbed.stopDaemon();
    ManyRunningResult result{.scale = measureDaemonAt(testbed, count, 0, stateDirectory), .sampling = sampling};
    testbed.stopDaemon();
    return result;
}

}  // namespace resized::bench
