// `resizectl top`'s reading of GetMetrics(), without a bus.

#include <cmath>

#include <gtest/gtest.h>

#include "metrics_table.h"
#include "quantity_format.h"

namespace resized::ctl {
namespace {

constexpr uint64_t kMi = 1ull << 20;
constexpr uint64_t kGi = 1ull << 30;

// As resized writes it, with families top does not show around and between.
constexpr const char* kExposition = R"(# HELP resized_update_requests_total UpdateResources calls answered, by result.
# TYPE resized_update_requests_total counter
resized_update_requests_total{result="success"} 3
resized_update_duration_seconds_bucket{le="+Inf"} 3
resized_drift_total 0
# HELP resized_workload_cpu_usage_millicores CPU used since the previous scrape, in millicores.
# TYPE resized_workload_cpu_usage_millicores gauge
resized_workload_cpu_usage_millicores{workload="web"} 350
resized_workload_cpu_usage_seconds_total{workload="web"} 12.5
resized_workload_cpu_usage_seconds_total{workload="batch"} 3
resized_workload_cpu_limit_millicores{workload="web"} 1000
resized_workload_memory_working_set_bytes{workload="web"} 268435456
resized_workload_memory_working_set_bytes{workload="batch"} 1.152921504606847e+18
resized_workload_memory_limit_bytes{workload="web"} 536870912
resized_workload_oom_kills_total{workload="web"} 0
resized_autoscale_recommendation{workload="web",resource="cpu"} 500
resized_autoscale_recommendation{workload="web",resource="memory"} 402653184
)";

TEST(MetricSample, ReadsNameLabelsAndValue)
{
    const auto sample = parseMetricSample(R"(resized_autoscale_recommendation{workload="web",resource="cpu"} 1500)");

    ASSERT_TRUE(sample);
    EXPECT_EQ(sample->name, "resized_autoscale_recommendation");
    EXPECT_EQ(sample->labels, (std::map<std::string, std::string>{{"workload", "web"}, {"resource", "cpu"}}));
    EXPECT_EQ(sample->value, 1500);
}

TEST(MetricSample, UnescapesLabelValues)
{
    const auto sample = parseMetricSample(R"(m{workload="a\"b\\c\nd",x="{,} "} 1)");

    ASSERT_TRUE(sample);
    EXPECT_EQ(sample->labels.at("workload"), "a\"b\\c\nd");
    EXPECT_EQ(sample->labels.at("x"), "{,} ");
}

TEST(MetricSample, TakesWhatTheFormatAllows)
{
    EXPECT_EQ(parseMetricSample("resized_drift_total 7")->value, 7);
    EXPECT_TRUE(parseMetricSample("resized_drift_total 7")->labels.empty());
    EXPECT_EQ(parseMetricSample(R"(m{a="1",} 2 1704362400000)")->value, 2);
    EXPECT_EQ(parseMetricSample("m{} 1e+3")->value, 1000);
    EXPECT_TRUE(std::isinf(parseMetricSample("m +Inf")->value));
    EXPECT_TRUE(std::isnan(parseMetricSample("m NaN")->value));
}

TEST(MetricSample, SkipsWhatIsNoSample)
{
    EXPECT_FALSE(parseMetricSample(""));
    EXPECT_FALSE(parseMetricSample("# TYPE m gauge"));
    EXPECT_FALSE(parseMetricSample("m"));
    EXPECT_FALSE(parseMetricSample("m{a=\"1\" 2"));
    EXPECT_FALSE(parseMetricSample("m{a=1} 2"));
    EXPECT_FALSE(parseMetricSample("m{a=\"1} 2"));
    EXPECT_FALSE(parseMetricSample("m two"));
    EXPECT_FALSE(parseMetricSample("9m 1"));
}

TEST(WorkloadMetrics, GathersEachWorkloadsFamiliesSortedByName)
{
    WorkloadMetrics batch;
    batch.workload = "batch";
    batch.memoryWorkingSet = 1ull << 60;
    WorkloadMetrics web{"web", 350, 1000, 256 * kMi, 512 * kMi, 500, 384 * kMi};

    EXPECT_EQ(parseWorkloadMetrics(kExposition), (std::vector<WorkloadMetrics>{batch, web}));
}

TEST(WorkloadMetrics, NameWithQuotesAndNoLimitAtAll)
{
    const auto workloads = parseWorkloadMetrics("resized_workload_memory_working_set_bytes{workload=\"we\\\"b\"} 1024\n"
                                                "resized_workload_memory_limit_bytes{workload=\"we\\\"b\"} +Inf");

    ASSERT_EQ(workloads.size(), 1u);
    EXPECT_EQ(workloads[0].workload, "we\"b");
    EXPECT_EQ(workloads[0].memoryLimit, core::kUnlimited);
    EXPECT_EQ(workloads[0].cpuLimitMillis, core::kUnlimited);
    EXPECT_FALSE(workloads[0].cpuUsageMillis);
}

TEST(WorkloadMetrics, EmptyTextHasNoWorkloads)
{
    EXPECT_TRUE(parseWorkloadMetrics("").empty());
    EXPECT_TRUE(parseWorkloadMetrics("resized_drift_total 0\n").empty());
}

TEST(TopTable, ShowsUsageAgainstLimitsAndRecommendationsWhenThereAreAny)
{
    EXPECT_EQ(makeTopTable(parseWorkloadMetrics(kExposition)).render(true),
              "WORKLOAD CPU  CPU LIMIT CPU%  MEM   MEM LIMIT MEM%  CPU REC MEM REC\n"
              "batch    -    max       -     1Ei   max       -     -       -\n"
              "web      0.35 1         35.0% 256Mi 512Mi     50.0% 0.5     384Mi\n");
}

TEST(TopTable, LeavesOutRecommendationsNobodyHas)
{
    WorkloadMetrics db{"db", 1500, 2000, kGi, 4 * kGi, std::nullopt, std::nullopt};

    EXPECT_EQ(makeTopTable({db}).render(true), "WORKLOAD CPU CPU LIMIT CPU%  MEM MEM LIMIT MEM%\n"
                                               "db       1.5 2         75.0% 1Gi 4Gi       25.0%\n");
}

TEST(TopTable, JsonHasDbusKeysAndNoLimitAsUint64Max)
{
    WorkloadMetrics db;
    db.workload = "db";
    db.memoryWorkingSet = kGi;

    EXPECT_EQ(toJson(db), (nlohmann::json{{"Workload", "db"},
                                          {"CpuMillis", core::kUnlimited},
                                          {"MemoryMax", core::kUnlimited},
                                          {"MemoryWorkingSet", kGi}}));
}

TEST(CpusFormat, IsExactDecimalCpus)
{
    EXPECT_EQ(formatCpus(1500), "1.5");
    EXPECT_EQ(formatCpus(2000), "2");
    EXPECT_EQ(formatCpus(350), "0.35");
    EXPECT_EQ(formatCpus(1), "0.001");
    EXPECT_EQ(formatCpus(0), "0");
    EXPECT_EQ(formatCpus(core::kUnlimited), "max");
}

}  // namespace
}  // namespace resized::ctl
