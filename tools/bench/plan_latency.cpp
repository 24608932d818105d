#include <array>
#include <stdexcept>

#include "phases.h"

// 1b. A plan of two changes that moves CPU from one running container to
// another, timed from SubmitPlan until its PlanFinished: validation,
// admission, execution (the decrease, then the increase) and commit. The
// plans alternate between two placements, so every plan changes both, and
// after every plan both cgroup files are checked (outside the timed part) to
// hold the new values.
namespace resized::bench {

namespace {

constexpr std::size_t kGiver = 0;
constexpr std::size_t kTaker = 1;
constexpr std::size_t kWarmUpPlans = 2;
// Fewer than section 1's calls: a plan takes a quarter of a second here, and
// the whole run is kept near two minutes.
constexpr Amount<std::size_t> kPlans{100, 3};
// {giver, taker} in millicores: 250 moved one way, then back.
constexpr std::array<std::array<std::uint64_t, 2>, 2> kPlacements{{{400, 100}, {150, 350}}};
constexpr auto kPlanTimeout = std::chrono::seconds(10);

void checkCpu(Testbed& testbed, std::size_t container, std::uint64_t millis)
{
    if (testbed.cpuQuotaUs(container) != Testbed::cfsQuotaFor(millis))
        throw std::runtime_error(testbed.containerName(container) + ": the cgroup does not hold " +
                                 std::to_string(millis) + " millicores after the plan");
}

}  // namespace

LatencySummary measurePlanLatency(Testbed& testbed)
{
    ResizedBus resized;
    std::vector<Duration> samples;
    for (std::size_t plan = 0; plan < kWarmUpPlans + kPlans(); ++plan) {
        const auto& [giver, taker] = kPlacements[plan % kPlacements.size()];
        const auto started = std::chrono::steady_clock::now();
        const PlanEnd end = resized.submitPlan({{testbed.containerName(kGiver), {.cpuMillis = giver}},
                                                {testbed.containerName(kTaker), {.cpuMillis = taker}}},
                                               kPlanTimeout);
        const auto finished = std::chrono::steady_clock::now();
        if (end.state != "succeeded")
            throw std::runtime_error("a plan ended " + end.state + " (" + end.reason + "): " + end.message);
        checkCpu(testbed, kGiver, giver);
        checkCpu(testbed, kTaker, taker);
        if (plan >= kWarmUpPlans)
            samples.push_back(finished - started);
    }
    return summarize(std::move(samples));
}

}  // namespace resized::bench
