#include <array>
#include <span>
#include <stdexcept>

#include "phases.h"
#include "process_usage.h"
#include "store/state_store.h"

// 4 and 5. Sync pass cost, memory and start-up time against the number of
// managed workloads. This machine runs 30 real containers comfortably, not
// 1,000: beyond 30 the workloads are records of containers that do not
// exist, written into the state database with the daemon's own store code
// while it is stopped. Such a workload takes the cheaper path of a pass (a
// Podman lookup that finds nothing, a store write), no cgroup read.
namespace resized::bench {

namespace {

struct Step {
    std::size_t running;
    std::size_t absent;
};

constexpr std::array<Step, 5> kSteps{{{0, 0}, {10, 0}, {30, 0}, {30, 70}, {30, 970}}};
// Every kind of step, with fewer workloads.
constexpr std::array<Step, 3> kQuickSteps{{{0, 0}, {10, 0}, {10, 20}}};
constexpr Amount<std::size_t> kStartups{3, 1};
constexpr std::uint64_t kCpuMillis = 10;

std::size_t passesFor(std::size_t workloads)
{
    return quickRun() ? 2 : workloads > 100 ? 5 : 10;
}

std::string absentName(std::size_t index)
{
    return "absent-" + std::to_string(index);
}

// What UpdateResources leaves behind for a workload whose container then
// went away.
void seedAbsentWorkloads(const std::filesystem::path& stateDirectory, std::size_t from, std::size_t to)
{
    store::StateStore store(stateDirectory / "state.db");
    store::WriteTransaction transaction(store.database());
    for (std::size_t index = from; index < to; ++index) {
        store::WorkloadRecord record;
        record.name = absentName(index);
        record.desired.cpuMillis = kCpuMillis;
        record.actuated.cpuMillis = kCpuMillis;
        record.allocated.cpuMillis = kCpuMillis;
        record.syncState = core::SyncState::Synchronized;
        record.updateState = core::UpdateState::Success;
        record.generation = 1;
        record.observedGeneration = 1;
        store.save(record);
    }
    transaction.commit();
}

void manageRunning(Testbed& testbed, std::size_t from, std::size_t to)
{
    ResizedBus resized;
    for (std::size_t index = from; index < to; ++index) {
        if (resized.setCpuMillis(testbed.containerName(index), kCpuMillis) != kCpuMillis)
            throw std::runtime_error(testbed.containerName(index) + ": not managed");
    }
}

LatencySummary timeStartups(Testbed& testbed, const std::filesystem::path& stateDirectory)
{
    std::vector<Duration> samples;
    for (std::size_t start = 0; start < kStartups(); ++start)
        samples.push_back(testbed.startDaemon(stateDirectory));
    return summarize(samples);
}

}  // namespace

ScaleRow measureDaemonAt(Testbed& testbed, std::size_t running, std::size_t absent,
                         const std::filesystem::path& stateDirectory)
{
    ScaleRow row;
    row.runningWorkloads = running;
    row.absentWorkloads = absent;
    row.startup = timeStartups(testbed, stateDirectory);

    ResizedBus resized;
    // The first pass after a start may still repair; the steady state is
    // what recurs every sync interval.
    resized.reconcileAll();
    std::vector<Duration> cpu;
    std::vector<Duration> wall;
    const pid_t daemon = testbed.daemonPid();
    for (std::size_t pass = 0; pass < passesFor(running + absent); ++pass) {
        const ProcessUsage before = usageOf(daemon);
        const auto started = std::chrono::steady_clock::now();
        resized.reconcileAll();
        wall.push_back(std::chrono::steady_clock::now() - started);
        cpu.push_back(usageOf(daemon).cpuTime - before.cpuTime);
    }
    row.passCpu = summarize(cpu);
    row.passWall = summarize(wall);
    const ResidentMemory memory = residentMemoryOf(daemon);
    row.residentBytes = memory.total;
    row.residentAnonymousBytes = memory.anonymous;
    return row;
}

std::vector<ScaleRow> measureScale(Testbed& testbed)
{
    const auto stateDirectory = testbed.stateDirectory("scale");
    Step managed{0, 0};
    std::vector<ScaleRow> rows;
    const std::span<const Step> steps = quickRun() ? std::span<const Step>(kQuickSteps) : kSteps;
    for (const Step& step : steps) {
        if (step.running > managed.running) {
            if (!testbed.daemonRunning())
                testbed.startDaemon(stateDirectory);
            manageRunning(testbed, managed.running, step.running);
        }
        testbed.stopDaemon();
        if (step.absent > managed.absent)
            seedAbsentWorkloads(stateDirectory, managed.absent, step.absent);
        managed = step;
        rows.push_back(measureDaemonAt(testbed, step.running, step.absent, stateDirectory));
    }
    testbed.stopDaemon();
    return rows;
}

}  // namespace resized::bench
