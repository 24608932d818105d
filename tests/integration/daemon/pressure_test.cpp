// Pressure targets (design.md §1c, CpuPressureTarget): the share of time a
// workload's tasks stall for CPU (PSI `some`, cgroup v2) scales its limit as
// a LowerIsBetter metric, and a PSI trigger samples at once when the stalls
// cross the target. cgroup v2 keeps the stalls: this program runs in the VM
// guest (tests/vm), against its systemd and Podman.

#include "autoscale_fixture.h"

#include "support/cgroup_hierarchy.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>

namespace resized::integration
{
namespace
{

using namespace std::chrono_literals;

class PressureTest : public AutoscaleTest
{
  protected:
    void SetUp() override
    {
        ASSERT_TRUE(unifiedCgroupHierarchy()) << "pressure stalls are kept per cgroup by cgroup v2";
        ASSERT_TRUE(std::filesystem::exists("/proc/pressure/cpu")) << "the kernel keeps no PSI: boot it with psi=1";
        AutoscaleTest::SetUp();
    }
};

// A loop held at 100m stalls about 90 % of the time. The first sample, one
// interval after the policy, has nothing to compare with; it arms the
// trigger, which fires once the stalls pass 10 % of its window, long before
// the second sample is due.
TEST_F(PressureTest, StallsAboveTheTargetRaiseTheLimitBeforeTheNextSample)
{
    const ScopedContainer busy(podman(), containerName("busy"), {}, busyLoop);
    client().updateResources(busy.name(), ResourceValues{.cpuMillis = 100});
    constexpr auto interval = 20s;
    const auto setAt = realtimeUsec();
    client().setAutoscalePolicy(
        busy.name(), {{"CpuPressureTarget", sdbus::Variant(10.0)},
                      {"CpuMinMillis", sdbus::Variant(std::uint64_t{100})},
                      {"CpuMaxMillis", sdbus::Variant(std::uint64_t{400})},
                      {"IntervalUSec", sdbus::Variant(usec(interval))},
                      {"ScaleUpPolicies", sdbus::Variant(RatePolicies{{"Absolute", 300, usec(60s)}})}});

    ASSERT_TRUE(cpuLimitReaches(busy.name(), 400, 3 * interval)) << actual(busy.name());
    EXPECT_EQ(CgroupLimits::read(busy.cgroupPath()).cpuMillis(), 400U);
    const auto steps = scaleSteps(busy.name());
    ASSERT_EQ(steps.size(), 1U);
    EXPECT_LT(steps.front().atUsec, setAt + 2 * usec(interval)) << "raised by the second sample, not the trigger";
}

// Without stalls the same target lowers the limit, sample by sample, to the
// minimum: nothing waits for the CPU it has.
TEST_F(PressureTest, WithoutStallsTheLimitFallsToTheMinimum)
{
    const auto idle = runContainer("idle");
    client().updateResources(idle.name(), ResourceValues{.cpuMillis = 500});
    client().setAutoscalePolicy(idle.name(), {{"CpuPressureTarget", sdbus::Variant(10.0)},
                                              {"CpuMinMillis", sdbus::Variant(std::uint64_t{100})},
                                              {"IntervalUSec", sdbus::Variant(usec(500ms))},
                                              {"ScaleDownStabilizationUSec", sdbus::Variant(std::uint64_t{0})}});

    ASSERT_TRUE(cpuLimitReaches(idle.name(), 100, 60s)) << actual(idle.name());
    EXPECT_EQ(CgroupLimits::read(idle.cgroupPath()).cpuMillis(), 100U);
}

// The share of the time stalled between two scrapes, as GetMetrics shows
// it: the loop held at 100m waits most of it.
TEST_F(PressureTest, TheCpuPressureRatioIsTheShareStalledBetweenScrapes)
{
    const ScopedContainer busy(podman(), containerName("busy"), {}, busyLoop);
    client().updateResources(busy.name(), ResourceValues{.cpuMillis = 100});
    const std::string series = "\nresized_workload_cpu_pressure_ratio{workload=\"" + busy.name() + "\"} ";
    EXPECT_EQ(client().getMetrics().find(series), std::string::npos) << "a first scrape has nothing to compare with";

    double ratio = -1;
    EXPECT_TRUE(waitUntil(
        [&] {
            const std::string metrics = client().getMetrics();
            const auto at = metrics.find(series);
            if (at == std::string::npos)
                return false;
            ratio = std::stod(metrics.substr(at + series.size()));
            return ratio >= 0.5;
        },
        60s))
        << "ratio " << ratio;
    EXPECT_LE(ratio, 1.0);
}

}  // namespace
}  // namespace resized::integration
