// GetMetrics: the Prometheus text the daemon serves, checked against the
// calls made and the cgroup files of real containers, over the real bus.

#include "daemon_test.h"

#include "support/cgroup_v1.h"
#include "support/wait.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>

namespace resized::integration
{
namespace
{

// Every sample of an exposition, by its series ("name{labels}").
std::map<std::string, double> samplesOf(const std::string& exposition)
{
    std::map<std::string, double> samples;
    std::istringstream lines(exposition);
    std::string line;
    while (std::getline(lines, line))
    {
        if (line.empty() || line.starts_with('#'))
            continue;
        const auto space = line.rfind(' ');
        EXPECT_NE(space, std::string::npos) << "not a sample: " << line;
        if (space == std::string::npos)
            continue;
        EXPECT_TRUE(samples.emplace(line.substr(0, space), std::stod(line.substr(space + 1))).second)
            << "series twice: " << line;
    }
    return samples;
}

std::optional<double> sampleOf(const std::map<std::string, double>& samples, const std::string& series)
{
    const auto found = samples.find(series);
    if (found == samples.end())
        return std::nullopt;
    return found->second;
}

std::string ofWorkload(const std::string& metric, const std::string& workload)
{
    return metric + "{workload=\"" + workload + "\"}";
}

class MetricsTest : public ManagedContainerTest
{
  protected:
    std::map<std::string, double> scrape() { return samplesOf(client().getMetrics()); }
};

TEST_F(MetricsTest, UpdateCallsAreCountedByResultWithTheirDuration)
{
    client().updateResources(name(), ResourceValues{.cpuMillis = 400});
    EXPECT_THROW(client().updateResources(name(), ResourceValues{.cpuMillis = cpuCapacity() + 1}),
                 sdbus::Error);
    EXPECT_THROW(client().updateResources("never-" + name(), ResourceValues{.cpuMillis = 100}), sdbus::Error);

    const auto samples = scrape();

    // SetUp's update and the first one above succeeded.
    EXPECT_EQ(sampleOf(samples, "resized_update_requests_total{result=\"success\"}"), 2.0);
    EXPECT_EQ(sampleOf(samples, "resized_update_requests_total{result=\"Infeasible\"}"), 1.0);
    EXPECT_EQ(sampleOf(samples, "resized_update_requests_total{result=\"NoSuchWorkload\"}"), 1.0);
    EXPECT_EQ(sampleOf(samples, "resized_update_duration_seconds_count"), 4.0);
    EXPECT_EQ(sampleOf(samples, "resized_update_duration_seconds_bucket{le=\"+Inf\"}"), 4.0);
    EXPECT_GT(sampleOf(samples, "resized_update_duration_seconds_sum").value_or(0), 0.0);
    // Cumulative: in the order of their bounds (the samples are in the
    // order of their text), each bucket holds at least the one below it,
    // and the last, +Inf, holds every call.
    const std::string bucketPrefix = "resized_update_duration_seconds_bucket{le=\"";
    std::map<double, double> countByBound;
    for (const auto& [series, value] : samples)
    {
        if (!series.starts_with(bucketPrefix))
            continue;
        const std::string bound = series.substr(bucketPrefix.size(), series.size() - bucketPrefix.size() - 2);
        EXPECT_TRUE(countByBound.emplace(std::stod(bound), value).second) << "bound twice: " << series;
    }
    ASSERT_GT(countByBound.size(), 2u);
    double below = 0;
    for (const auto& [bound, count] : countByBound)
    {
        EXPECT_GE(count, below) << "the bucket le=" << bound << " holds fewer calls than the one below it";
        below = count;
    }
    EXPECT_TRUE(std::isinf(countByBound.rbegin()->first));
    EXPECT_EQ(countByBound.rbegin()->second, 4.0);
}

TEST_F(MetricsTest, AWorkloadsLimitsAndMemoryComeFromItsCgroup)
{
    const auto holder = ScopedContainer::holdingMemory(podman(), containerName("holder"), 64);
    client().updateResources(holder.name(), ResourceValues{.cpuMillis = 250, .memoryMax = 192 * mebibyte});

    const auto workingSetSeries = ofWorkload("resized_workload_memory_working_set_bytes", holder.name());
    // The holder fills its 64 MiB after it started.
    std::map<std::string, double> samples;
    EXPECT_TRUE(waitUntil(
        [&] {
            samples = scrape();
            return sampleOf(samples, workingSetSeries).value_or(0) >= static_cast<double>(64 * mebibyte);
        },
        std::chrono::seconds(30)))
        << "working set " << sampleOf(samples, workingSetSeries).value_or(-1);

    EXPECT_EQ(sampleOf(samples, ofWorkload("resized_workload_cpu_limit_millicores", name())), 300.0);
    EXPECT_EQ(sampleOf(samples, ofWorkload("resized_workload_memory_limit_bytes", name())),
              static_cast<double>(256 * mebibyte));
    EXPECT_EQ(sampleOf(samples, ofWorkload("resized_workload_cpu_limit_millicores", holder.name())), 250.0);
    EXPECT_LE(sampleOf(samples, workingSetSeries).value_or(0), static_cast<double>(192 * mebibyte));
    EXPECT_EQ(sampleOf(samples, ofWorkload("resized_workload_oom_kills_total", holder.name())), 0.0);
    EXPECT_TRUE(sampleOf(samples, ofWorkload("resized_workload_cpu_usage_seconds_total", holder.name())));
    // The VM tier checks the pressure samples under cgroup v2.
    EXPECT_FALSE(sampleOf(samples, ofWorkload("resized_workload_memory_pressure_waiting_seconds_total", holder.name())))
        << "cgroup v1 has no pressure files, and no pressure is made up";
    EXPECT_FALSE(sampleOf(samples, ofWorkload("resized_workload_cpu_pressure_ratio", holder.name())));
}

TEST_F(MetricsTest, TheCpuRateIsMeasuredBetweenScrapesAndHeldUnderTheLimit)
{
    const ScopedContainer busy(podman(), containerName("busy"), {},
                               {"sh", "-c", "trap 'exit 0' TERM; while :; do :; done"});
    client().updateResources(busy.name(), ResourceValues{.cpuMillis = 200});
    const auto series = ofWorkload("resized_workload_cpu_usage_millicores", busy.name());

    // The rate between two scrapes is held under the limit only over many
    // CFS periods: the second scrape comes once the kernel has counted ten
    // periods of the loop running since the first (one second, or more on a
    // busy machine), not after a fixed time.
    const auto periodsRun = [&] {
        std::istringstream stat(CgroupV1(busy.cgroupPath()).read("cpu", "cpu.stat"));
        std::string key;
        std::uint64_t value = 0;
        while (stat >> key >> value)
        {
            if (key == "nr_periods")
                return value;
        }
        return std::uint64_t{0};
    };
    const std::uint64_t periodsBefore = periodsRun();
    EXPECT_FALSE(sampleOf(scrape(), series)) << "a rate without a previous scrape";
    ASSERT_TRUE(waitUntil([&] { return periodsRun() >= periodsBefore + 10; }, std::chrono::seconds(60)));
    const auto rate = sampleOf(scrape(), series);

    ASSERT_TRUE(rate);
    EXPECT_GT(*rate, 0.0);
    // Unthrottled, the loop would use a whole CPU (1000m). The quota allows
    // 200 ms a second, and a little more in a window that does not start on
    // a period: CFS hands out runtime in slices that may overrun it.
    EXPECT_LE(*rate, 300.0);
}

TEST_F(MetricsTest, DriftRepairedIsCounted)
{
    EXPECT_EQ(sampleOf(scrape(), "resized_drift_total"), 0.0);
    std::ofstream(CgroupV1(container().cgroupPath()).file("cpu", "cpu.cfs_quota_us")) << "20000";

    client().reconcile(name());

    EXPECT_EQ(sampleOf(scrape(), "resized_drift_total"), 1.0);
}

} // namespace
} // namespace resized::integration
