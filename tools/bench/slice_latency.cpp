#include <stdexcept>
#include <thread>

#include "core/cpuset.h"
#include "phases.h"
#include "resized_bus.h"

// 1c. The CPU manager's static policy: an exclusive slice of one CPU given
// to a running container (bench-00) and given back, each timed from
// UpdateResources to its answer, and then how long until every other
// container of the testbed is off the slice (or back on every CPU), as their
// cgroups' cpusets say, polled every millisecond.
namespace resized::bench {

namespace {

using Clock = std::chrono::steady_clock;

constexpr std::size_t kHolder = 0;
constexpr std::size_t kWarmUpRounds = 2;
// Each round waits for a pass over every container twice: a few seconds.
constexpr Amount<std::size_t> kRounds{30, 2};
constexpr auto kPlacementTimeout = std::chrono::seconds(10);

// Waits until every container but the holder runs on `cpus`; how long
// that took from `since`.
Duration waitForOthersOn(const Testbed& testbed, const std::string& cpus, Clock::time_point since)
{
    const auto deadline = Clock::now() + kPlacementTimeout;
    for (std::size_t index = 0; index < Testbed::kContainerCount; ++index) {
        while (index != kHolder && testbed.cpusetOf(index) != cpus) {
            if (Clock::now() > deadline)
                throw std::runtime_error(testbed.containerName(index) + " is not on CPUs " + cpus + " after " +
                                         std::to_string(kPlacementTimeout.count()) + " s");
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
    }
    return Clock::now() - since;
}

}  // namespace

SliceLatencyResult measureSliceLatency(Testbed& testbed)
{
    const std::string allCpus = testbed.cpusetOf(kHolder);
    const core::CpuSet everyCpu = core::parseCpuSet(allCpus).value_or(core::CpuSet{});
    testbed.startDaemon(testbed.stateDirectory("cpu-manager"), "[CpuManager]\nPolicy=static\n");
    ResizedBus resized;
    const std::string& holder = testbed.containerName(kHolder);
    std::vector<Duration> grants, giveBacks, othersOff, othersBack;
    for (std::size_t round = 0; round < kWarmUpRounds + kRounds(); ++round) {
        auto started = Clock::now();
        const auto granted = resized.update(holder, {.exclusiveCpus = 1});
        auto answered = Clock::now();
        if (!granted.allowedCpus || granted.allowedCpus->size() != 1)
            throw std::runtime_error(holder + " was not given a slice of one CPU");
        const std::string slice = core::formatCpuSet(*granted.allowedCpus);
        if (testbed.cpusetOf(kHolder) != slice)
            throw std::runtime_error(holder + "'s cgroup does not hold its slice " + slice);
        const auto shared = core::difference(everyCpu, *granted.allowedCpus);
        const Duration off = waitForOthersOn(testbed, core::formatCpuSet(shared), answered);
        if (round >= kWarmUpRounds) {
            grants.push_back(answered - started);
            othersOff.push_back(off);
        }

        started = Clock::now();
        resized.update(holder, {.exclusiveCpus = 0});
        answered = Clock::now();
        const Duration back = waitForOthersOn(testbed, allCpus, answered);
        if (round >= kWarmUpRounds) {
            giveBacks.push_back(answered - started);
            othersBack.push_back(back);
        }
    }
    return {.grant = summarize(std::move(grants)),
            .giveBack = summarize(std::move(giveBacks)),
            .othersOff = summarize(std::move(othersOff)),
            .othersBack = summarize(std::move(othersBack)),
            .otherContainers = Testbed::kContainerCount - 1};
}

}  // namespace resized::bench
