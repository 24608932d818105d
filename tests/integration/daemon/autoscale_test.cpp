// The autoscaler end to end: policies over the real bus, real containers
// that are busy, idle or run out of memory, and the limits it sets checked in
// their cgroup files and in the history; the decisions' arithmetic is
// tests/unit/core/autoscale_test.cpp's.

#include "autoscale_fixture.h"

#include "support/cgroup_hierarchy.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <unistd.h>

namespace resized::integration
{
namespace
{

using namespace std::chrono_literals;

// Every second a child of the shell tries to hold 100 MiB; under a smaller
// limit the kernel kills the child, and the container lives on.
const std::vector<std::string> allocatingLoop{
    "sh", "-c",
    R"(trap 'exit 0' TERM; while :; do sh -c 'x=$(head -c 104857600 /dev/zero | tr "\000" a)'; sleep 1; done)"};

TEST_F(AutoscaleTest, ABusyLoopIsRaisedNoFasterThanTheRatePolicyUpToTheMax)
{
    const ScopedContainer busy(podman(), containerName("busy"), {}, busyLoop);
    client().updateResources(busy.name(), ResourceValues{.cpuMillis = 100});
    constexpr std::uint64_t maxMillis = 600;
    constexpr auto period = 2s;
    client().setAutoscalePolicy(
        busy.name(), {{"CpuTargetUtilization", sdbus::Variant(std::uint32_t{50})},
                      {"CpuMinMillis", sdbus::Variant(std::uint64_t{100})},
                      {"CpuMaxMillis", sdbus::Variant(maxMillis)},
                      {"IntervalUSec", sdbus::Variant(usec(500ms))},
                      {"ScaleUpPolicies", sdbus::Variant(RatePolicies{{"Percent", 50, usec(period)}})}});

    ASSERT_TRUE(cpuLimitReaches(busy.name(), maxMillis, 90s)) << actual(busy.name());

    EXPECT_EQ(CgroupLimits::read(busy.cgroupPath()).cpuMillis(), maxMillis);
    const auto steps = scaleSteps(busy.name());
    // 100m → 150m → 225m → 338m → 507m → 600m: half again per period at most.
    ASSERT_GE(steps.size(), 4U);
    EXPECT_EQ(steps.back().request.cpuMillis, maxMillis);
    for (size_t index = 0; index < steps.size(); ++index)
    {
        // The limit in force one period before this step (a little slack for
        // the time between decision and record) is where the rate counts
        // from.
        std::uint64_t periodStart = 100;
        for (size_t earlier = 0; earlier < index; ++earlier)
        {
            if (steps[earlier].atUsec + usec(period) <= steps[index].atUsec + usec(250ms))
                periodStart = *steps[earlier].request.cpuMillis;
        }
        ASSERT_TRUE(steps[index].request.cpuMillis) << index;
        EXPECT_LE(*steps[index].request.cpuMillis, (periodStart * 3 + 1) / 2) << "step " << index;
        EXPECT_LE(*steps[index].request.cpuMillis, maxMillis) << "step " << index;
    }
    EXPECT_TRUE(waitUntil(
        [&] { return entryOf<std::string>(autoscaleStatus(busy.name()), "Condition") == "AtMax"; }, 10s));
    const auto status = client().getResourceStatus(busy.name());
    EXPECT_EQ(entryOf<std::uint64_t>(entryOf<Dictionary>(status, "Autoscale"), "CpuMaxMillis"), maxMillis);
    EXPECT_GT(entryOf<std::uint64_t>(entryOf<Dictionary>(status, "AutoscaleStatus"), "LastScaleUSec"), 0U);
    EXPECT_NE(client().getMetrics().find("resized_autoscale_recommendation{workload=\"" + busy.name() +
                                         "\",resource=\"cpu\"}"),
              std::string::npos);
}

TEST_F(AutoscaleTest, AnIdleWorkloadHoldsForTheDownWindowThenFallsToTheMin)
{
    const auto idle = runContainer("idle");
    client().updateResources(idle.name(), ResourceValues{.cpuMillis = 1000});
    constexpr auto window = 4s;
    const std::uint64_t policySetUsec = realtimeUsec();
    client().setAutoscalePolicy(idle.name(), {{"CpuTargetUtilization", sdbus::Variant(std::uint32_t{50})},
                                              {"CpuMinMillis", sdbus::Variant(std::uint64_t{200})},
                                              {"IntervalUSec", sdbus::Variant(usec(500ms))},
                                              {"ScaleDownStabilizationUSec", sdbus::Variant(usec(window))}});

    ASSERT_TRUE(cpuLimitReaches(idle.name(), 200, 60s)) << actual(idle.name());

    EXPECT_EQ(CgroupLimits::read(idle.cgroupPath()).cpuMillis(), 200U);
    const auto steps = scaleSteps(idle.name());
    ASSERT_FALSE(steps.empty());
    EXPECT_GE(steps.front().atUsec, policySetUsec + usec(window)) << "fell inside the down-window";
    for (const auto& step : steps)
    {
        EXPECT_GE(step.request.cpuMillis.value_or(0), 200U) << "below the min";
    }
}

// The autoscaler keeps the workload's record between samples: a container
// re-created under the name must be sampled in its new cgroup, and raised
// there, not left at the old cgroup's idle reading.
TEST_F(AutoscaleTest, AContainerReCreatedUnderTheNameIsSampledInItsNewCgroup)
{
    const std::string name = containerName("recreated");
    std::optional<ScopedContainer> container;
    container.emplace(podman(), name);
    client().updateResources(name, ResourceValues{.cpuMillis = 100});
    client().setAutoscalePolicy(name, {{"CpuTargetUtilization", sdbus::Variant(std::uint32_t{50})},
                                       {"CpuMinMillis", sdbus::Variant(std::uint64_t{100})},
                                       {"CpuMaxMillis", sdbus::Variant(std::uint64_t{400})},
                                       {"IntervalUSec", sdbus::Variant(usec(300ms))}});
    ASSERT_TRUE(waitUntil([&] { return autoscaleStatus(name).contains("CpuUsageMillis"); }, 10s));
    const auto oldCgroup = container->cgroupPath();

    container.reset();
    container.emplace(podman(), name, std::vector<std::string>{}, busyLoop);
    ASSERT_NE(container->cgroupPath(), oldCgroup);

    ASSERT_TRUE(cpuLimitReaches(name, 400, 60s)) << actual(name);
    EXPECT_EQ(CgroupLimits::read(container->cgroupPath()).cpuMillis(), 400U);
}

TEST_F(AutoscaleTest, RecommendModeComputesAndChangesNothing)
{
    const ScopedContainer busy(podman(), containerName("busy"), {}, busyLoop);
    client().updateResources(busy.name(), ResourceValues{.cpuMillis = 100});
    const auto before = CgroupLimits::read(busy.cgroupPath());
    client().setAutoscalePolicy(busy.name(), {{"CpuTargetUtilization", sdbus::Variant(std::uint32_t{50})},
                                              {"IntervalUSec", sdbus::Variant(usec(500ms))},
                                              {"Mode", sdbus::Variant(std::string("recommend"))}});

    // Held at 100m, the loop uses about 100m: 200m at a 50% target.
    ASSERT_TRUE(waitUntil(
        [&] {
            const auto status = autoscaleStatus(busy.name());
            return status.contains("CpuRecommendationMillis") &&
                   entryOf<std::uint64_t>(status, "CpuRecommendationMillis") > 150;
        },
        30s));

    EXPECT_EQ(CgroupLimits::read(busy.cgroupPath()), before);
    EXPECT_TRUE(scaleSteps(busy.name()).empty());
    client().removeAutoscalePolicy(busy.name());
    EXPECT_FALSE(client().getResourceStatus(busy.name()).contains("Autoscale"));
}

TEST_F(AutoscaleTest, ForgettingAWorkloadEndsItsPolicy)
{
    const auto idle = runContainer("idle");
    client().updateResources(idle.name(), ResourceValues{.cpuMillis = 500});
    client().setAutoscalePolicy(idle.name(), {{"CpuTargetUtilization", sdbus::Variant(std::uint32_t{50})}});

    client().forget(idle.name());

    EXPECT_FALSE(client().getResourceStatus(idle.name()).contains("Autoscale"));
    const auto error = errorOf([&] { client().removeAutoscalePolicy(idle.name()); });
    ASSERT_TRUE(error);
    EXPECT_EQ(error->getName(), "io.resized1.Error.NoSuchWorkload");
}

TEST_F(AutoscaleTest, AChangeShortOfCapacityWaitsAndRunsAsTheAutoscalersWhenFreed)
{
    const ScopedContainer busy(podman(), containerName("busy"), {}, busyLoop);
    client().updateResources(busy.name(), ResourceValues{.cpuMillis = 100});
    const auto hog = runContainer("hog");
    // All the CPU left, so that no increase fits.
    client().updateResources(hog.name(), ResourceValues{.cpuMillis = client().managerNumber("CpuAvailableMillis")});
    client().setAutoscalePolicy(busy.name(), {{"CpuTargetUtilization", sdbus::Variant(std::uint32_t{50})},
                                              {"CpuMaxMillis", sdbus::Variant(std::uint64_t{400})},
                                              {"IntervalUSec", sdbus::Variant(usec(500ms))}});

    ASSERT_TRUE(waitUntil(
        [&] { return entryOf<std::string>(autoscaleStatus(busy.name()), "Condition") == "Deferred"; }, 30s))
        << entryOf<std::string>(autoscaleStatus(busy.name()), "Condition");
    EXPECT_EQ(CgroupLimits::read(busy.cgroupPath()).cpuMillis(), 100U);
    EXPECT_TRUE(scaleSteps(busy.name()).empty());

    const std::uint64_t freedUsec = realtimeUsec();
    client().updateResources(hog.name(), ResourceValues{.cpuMillis = 100});

    ASSERT_TRUE(waitUntil([&] { return actual(busy.name()).cpuMillis > 100U; }, 30s));
    // The change counts in the rate periods from when it ran.
    EXPECT_GE(entryOf<std::uint64_t>(autoscaleStatus(busy.name()), "LastScaleUSec"), freedUsec);
    std::vector<std::string> actorsAndResults;
    for (const auto& entry : client().getHistory(busy.name(), 0))
    {
        actorsAndResults.push_back(entryOf<std::string>(entry, "Actor") + " " +
                                   entryOf<std::string>(entry, "Result"));
    }
    // Newest first: the change that waited ran as the autoscaler's, after
    // it was deferred as the autoscaler's, after the caller's first update.
    ASSERT_GE(actorsAndResults.size(), 3U);
    EXPECT_EQ(actorsAndResults.back(), "uid:" + std::to_string(geteuid()) + " success");
    EXPECT_GE(std::count(actorsAndResults.begin(), actorsAndResults.end(), "autoscale deferred"), 1);
    EXPECT_EQ(actorsAndResults.front(), "autoscale success");
    EXPECT_EQ(std::count_if(actorsAndResults.begin(), actorsAndResults.end() - 1,
                            [](const std::string& each) { return !each.starts_with("autoscale "); }),
              0);
}

TEST_F(AutoscaleTest, TheWindowsSurviveARestartOfTheDaemon)
{
    const auto idle = runContainer("idle");
    client().updateResources(idle.name(), ResourceValues{.cpuMillis = 1000});
    constexpr auto window = 9s;
    const std::uint64_t policySetUsec = realtimeUsec();
    client().setAutoscalePolicy(idle.name(), {{"CpuTargetUtilization", sdbus::Variant(std::uint32_t{50})},
                                              {"CpuMinMillis", sdbus::Variant(std::uint64_t{200})},
                                              {"IntervalUSec", sdbus::Variant(usec(500ms))},
                                              {"ScaleDownStabilizationUSec", sdbus::Variant(usec(window))}});
    // The window is under way once the daemon recommends a lower limit;
    // the restart comes a third of a window after that, so that the fall of
    // a daemon that remembers, however late it acts within two thirds of a
    // window, comes before the earliest fall of one that began again.
    const std::string recommendation =
        "resized_autoscale_recommendation{workload=\"" + idle.name() + "\",resource=\"cpu\"}";
    ASSERT_TRUE(waitUntil([&] { return client().getMetrics().find(recommendation) != std::string::npos; }, 60s))
        << "no recommendation for " << idle.name();
    const std::uint64_t windowUnderWayUsec = realtimeUsec();
    ASSERT_TRUE(waitUntil([&] { return realtimeUsec() >= windowUnderWayUsec + usec(window) / 3; }, window));
    ASSERT_EQ(daemon().stop(), 0);
    startDaemon();
    const std::uint64_t restartedUsec = realtimeUsec();

    ASSERT_TRUE(cpuLimitReaches(idle.name(), 200, 60s)) << actual(idle.name());

    const auto steps = scaleSteps(idle.name());
    ASSERT_FALSE(steps.empty());
    EXPECT_GE(steps.front().atUsec, policySetUsec + usec(window)) << "fell inside the down-window";
    // A daemon that forgot the recommendations before the restart would
    // begin a window of its own then, and fall no sooner than a whole
    // window after it.
    EXPECT_LT(steps.front().atUsec, restartedUsec + usec(window)) << "the window began again at the restart";
}

TEST_F(AutoscaleTest, AnOomKillRaisesMemoryAtOnce)
{
    const ScopedContainer allocating(podman(), containerName("allocating"), {}, allocatingLoop);
    constexpr std::uint64_t limit = 64 * mebibyte;
    client().updateResources(allocating.name(), ResourceValues{.memoryMax = limit});
    client().setAutoscalePolicy(allocating.name(), {{"MemoryTargetUtilization", sdbus::Variant(std::uint32_t{90})},
                                                    {"MemoryMinBytes", sdbus::Variant(4 * mebibyte)},
                                                    {"MemoryMaxBytes", sdbus::Variant(512 * mebibyte)},
                                                    {"IntervalUSec", sdbus::Variant(usec(500ms))}});

    ASSERT_TRUE(waitUntil([&] { return actual(allocating.name()).memoryMax >= limit + 100 * mebibyte; }, 60s))
        << actual(allocating.name());

    // The default rate (100% per 15 s) allows at most a doubling; the bump
    // adds 100 MiB to the limit it found, whatever the rate. It finds the
    // limit the kernel holds: the step asked, rounded down to a page.
    const auto steps = scaleSteps(allocating.name());
    const std::uint64_t page = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
    std::uint64_t before = limit;
    bool bumped = false;
    for (const auto& step : steps)
    {
        const auto after = step.request.memoryMax.value_or(before);
        bumped = bumped || after >= before / page * page + 100 * mebibyte;
        before = after;
    }
    EXPECT_TRUE(bumped) << steps.size() << " steps, last " << before;
    const auto metrics = client().getMetrics();
    const auto series = "resized_workload_oom_kills_total{workload=\"" + allocating.name() + "\"} ";
    const auto found = metrics.find(series);
    ASSERT_NE(found, std::string::npos) << metrics;
    EXPECT_GE(std::stoull(metrics.substr(found + series.size())), 1U) << "no OOM kill counted";
}

TEST_F(AutoscaleTest, ABadPolicyOrAnUnknownWorkloadIsRefusedAndChangesNothing)
{
    const auto idle = runContainer("idle");
    const Dictionary sound{{"CpuTargetUtilization", sdbus::Variant(std::uint32_t{50})}};

    EXPECT_EQ(errorName([&] {
                  client().setAutoscalePolicy(idle.name(),
                                              {{"CpuTargetUtilization", sdbus::Variant(std::uint32_t{0})}});
              }),
              "io.resized1.Error.InvalidArgument");
    EXPECT_EQ(errorName([&] {
                  client().setAutoscalePolicy(idle.name(), {{"CpuTarget", sdbus::Variant(std::uint32_t{50})}});
              }),
              "io.resized1.Error.InvalidArgument");
    EXPECT_EQ(errorName([&] {
                  client().setAutoscalePolicy(idle.name(),
                                              {{"CpuTargetUtilization", sdbus::Variant(std::uint32_t{50})},
                                               {"ScaleUpSelect", sdbus::Variant(std::string("Fastest"))}});
              }),
              "io.resized1.Error.InvalidArgument");
    EXPECT_EQ(errorName([&] { client().setAutoscalePolicy("never-" + idle.name(), sound); }),
              "io.resized1.Error.NoSuchWorkload");
    EXPECT_EQ(errorName([&] { client().removeAutoscalePolicy(idle.name()); }),
              "io.resized1.Error.NoSuchWorkload");
    EXPECT_EQ(callAsNobody({"SetAutoscalePolicy", idle.name()}), "org.freedesktop.DBus.Error.AccessDenied");
    EXPECT_EQ(callAsNobody({"RemoveAutoscalePolicy", idle.name()}), "org.freedesktop.DBus.Error.AccessDenied");
    EXPECT_FALSE(client().getResourceStatus(idle.name()).contains("Autoscale"));

    client().setAutoscalePolicy(idle.name(), sound);
    const auto policy = entryOf<Dictionary>(client().getResourceStatus(idle.name()), "Autoscale");
    // The defaults of design.md, filled in.
    EXPECT_EQ(entryOf<std::uint64_t>(policy, "IntervalUSec"), usec(1s));
    EXPECT_EQ(entryOf<std::uint64_t>(policy, "ScaleDownStabilizationUSec"), usec(300s));
    EXPECT_EQ(entryOf<std::string>(policy, "Mode"), "auto");
    EXPECT_NO_THROW(client().removeAutoscalePolicy(idle.name()));
}

// Each resource says why it is where it is: a CPU held by its rate is not
// hidden behind a memory at its minimum, which `Condition` alone shows.
TEST_F(AutoscaleTest, EachResourceHasItsOwnCondition)
{
    const ScopedContainer busy(podman(), containerName("busy"), {}, busyLoop);
    client().updateResources(busy.name(), ResourceValues{.cpuMillis = 100, .memoryMax = 512 * mebibyte});
    client().setAutoscalePolicy(
        busy.name(), {{"CpuTargetUtilization", sdbus::Variant(std::uint32_t{50})},
                      {"MemoryTargetUtilization", sdbus::Variant(std::uint32_t{80})},
                      {"IntervalUSec", sdbus::Variant(usec(200ms))},
                      {"ScaleDownStabilizationUSec", sdbus::Variant(usec(1s))},
                      {"ScaleUpPolicies", sdbus::Variant(RatePolicies{{"Percent", 10, usec(600s)}})}});

    ASSERT_TRUE(waitUntil([&] { return actual(busy.name()).memoryMax == 250 * mebibyte; }, 30s))
        << actual(busy.name());
    // The busy loop wants twice its 100m; 10 % a period allows 110m.
    ASSERT_TRUE(waitUntil(
        [&] { return entryOf<std::string>(autoscaleStatus(busy.name()), "CpuCondition") == "ScaleUpLimit"; }, 30s))
        << actual(busy.name());
    const Dictionary status = autoscaleStatus(busy.name());
    EXPECT_EQ(entryOf<std::string>(status, "MemoryCondition"), "AtMin");
    EXPECT_EQ(entryOf<std::string>(status, "Condition"), "AtMin");
    EXPECT_EQ(actual(busy.name()).cpuMillis, 110U);
}

// Memory that cannot be starved: an idle container's memory falls to the
// default minimum (250 MiB, VPA's), not to what its shell uses, and never
// below its peak working set over the window plus 15 %.
TEST_F(AutoscaleTest, IdleMemoryFallsNoLowerThanTheDefaultMinimum)
{
    const auto idle = runContainer("idle");
    client().updateResources(idle.name(), ResourceValues{.memoryMax = 512 * mebibyte});
    client().setAutoscalePolicy(idle.name(), {{"MemoryTargetUtilization", sdbus::Variant(std::uint32_t{80})},
                                              {"IntervalUSec", sdbus::Variant(usec(200ms))},
                                              {"ScaleDownStabilizationUSec", sdbus::Variant(usec(1s))}});

    ASSERT_TRUE(waitUntil([&] { return actual(idle.name()).memoryMax == 250 * mebibyte; }, 30s))
        << actual(idle.name());
    const Dictionary status = autoscaleStatus(idle.name());
    EXPECT_EQ(entryOf<std::string>(status, "Condition"), "AtMin");
    for (const auto& step : scaleSteps(idle.name()))
    {
        EXPECT_GE(step.request.memoryMax.value_or(512 * mebibyte), 250 * mebibyte);
    }
}

// Pressure stalls (PSI) are kept per cgroup by cgroup v2 alone: where the
// cgroups keep none, a pressure target is refused, naming the key and the
// reason, and no policy is set; where they keep them, it is taken
// (tests/integration/daemon/pressure_test.cpp follows it, in the VM guest).
TEST_F(AutoscaleTest, APressureTargetIsRefusedOnlyWhereCgroupsKeepNoPressure)
{
    const bool kept = unifiedCgroupHierarchy() && std::filesystem::exists("/proc/pressure/cpu");
    const auto idle = runContainer("idle");
    for (const char* key : {"CpuPressureTarget", "MemoryPressureTarget"})
    {
        const auto error = errorOf([&] { client().setAutoscalePolicy(idle.name(), {{key, sdbus::Variant(10.0)}}); });
        if (kept)
        {
            ASSERT_FALSE(error) << key << ": " << error->getMessage();
            const auto policy = entryOf<Dictionary>(client().getResourceStatus(idle.name()), "Autoscale");
            EXPECT_EQ(entryOf<double>(policy, key), 10.0);
            continue;
        }
        ASSERT_TRUE(error) << key;
        EXPECT_EQ(error->getName(), "io.resized1.Error.InvalidArgument");
        EXPECT_NE(error->getMessage().find(key), std::string::npos) << error->getMessage();
        EXPECT_NE(error->getMessage().find("PSI"), std::string::npos) << error->getMessage();
        EXPECT_FALSE(client().getResourceStatus(idle.name()).contains("Autoscale"));
    }
    // A percent outside (0, 100] is the caller's error on any machine.
    EXPECT_EQ(errorName([&] {
                  client().setAutoscalePolicy(idle.name(), {{"CpuPressureTarget", sdbus::Variant(0.0)}});
              }),
              "io.resized1.Error.InvalidArgument");
}

// Seed 000's use case: the application's own figures scale its limit. Too
// few frames per second raise the CPU limit by the ratio to the target, too
// many lower it; GetMetrics and the status show what was reported.
TEST_F(AutoscaleTest, ReportedMetricsScaleTheLimitByTheirRatioToTheTarget)
{
    const auto game = runContainer("game");
    client().updateResources(game.name(), ResourceValues{.cpuMillis = 200});
    const Dictionary fps{{"Target", sdbus::Variant(60.0)},
                         {"Direction", sdbus::Variant(std::string("HigherIsBetter"))}};
    // At most 200m more a minute: the raise stops at 400m however long the
    // report stays low.
    client().setAutoscalePolicy(
        game.name(),
        {{"Metrics", sdbus::Variant(std::vector<sdbus::Struct<std::string, Dictionary>>{{"fps", fps}})},
         {"CpuMaxMillis", sdbus::Variant(std::uint64_t{1000})},
         {"IntervalUSec", sdbus::Variant(usec(200ms))},
         {"ScaleDownStabilizationUSec", sdbus::Variant(std::uint64_t{0})},
         {"ScaleUpPolicies", sdbus::Variant(RatePolicies{{"Absolute", 200, usec(60s)}})}});

    client().reportMetrics(game.name(), {{"fps", 30.0}});
    ASSERT_TRUE(cpuLimitReaches(game.name(), 400, 30s)) << actual(game.name());  // ceil(200m × 60 / 30)
    using Values = std::map<std::string, double>;
    EXPECT_EQ(entryOf<Values>(autoscaleStatus(game.name()), "Metrics"), (Values{{"fps", 30.0}}));

    client().reportMetrics(game.name(), {{"fps", 120.0}});
    ASSERT_TRUE(cpuLimitReaches(game.name(), 200, 30s)) << actual(game.name());  // ceil(400m × 60 / 120)
    EXPECT_EQ(CgroupLimits::read(game.cgroupPath()).cpuMillis(), 200U);
    EXPECT_NE(client().getMetrics().find("resized_workload_app_metric{workload=\"" + game.name() +
                                         "\",name=\"fps\"} 120\n"),
              std::string::npos);
}

TEST_F(AutoscaleTest, AReportWithoutAPolicyOrWithABadValueIsRefused)
{
    const auto idle = runContainer("idle");
    EXPECT_EQ(errorName([&] { client().reportMetrics(idle.name(), {{"fps", 30.0}}); }),
              "io.resized1.Error.NoSuchWorkload");
    client().setAutoscalePolicy(idle.name(), {{"CpuTargetUtilization", sdbus::Variant(std::uint32_t{50})}});
    EXPECT_EQ(errorName([&] { client().reportMetrics(idle.name(), {{"fps", -1.0}}); }),
              "io.resized1.Error.InvalidArgument");
    EXPECT_EQ(errorName([&] { client().reportMetrics(idle.name(), {{"", 1.0}}); }),
              "io.resized1.Error.InvalidArgument");
    EXPECT_EQ(errorName([&] {
                  client().setAutoscalePolicy(
                      idle.name(), {{"Metrics", sdbus::Variant(std::vector<sdbus::Struct<std::string, Dictionary>>{
                                                    {"fps", {{"Target", sdbus::Variant(0.0)}}}})}});
              }),
              "io.resized1.Error.InvalidArgument");
    client().reportMetrics(idle.name(), {{"latency_ms", 12.5}});
    using Values = std::map<std::string, double>;
    EXPECT_EQ(entryOf<Values>(autoscaleStatus(idle.name()), "Metrics"), (Values{{"latency_ms", 12.5}}));
}

} // namespace
} // namespace resized::integration
