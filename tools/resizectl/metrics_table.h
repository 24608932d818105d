#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/resources.h"
#include "table.h"

namespace resized::ctl {

// One sample line of the Prometheus text format (0.0.4):
//   name{label="value",...} 42 [timestamp]
// Label values unescaped (\\, \", \n); the value as the format writes it,
// +Inf, -Inf and NaN included.
struct MetricSample {
    std::string name;
    std::map<std::string, std::string> labels;
    double value = 0;
};

// nullopt for a comment, a blank line or a line that is not a sample.
std::optional<MetricSample> parseMetricSample(std::string_view line);

// A managed workload as GetMetrics() shows it. A limit the text leaves out
// (the cgroup has none) is core::kUnlimited; a usage it leaves out (the
// first scrape has no CPU rate yet) and a recommendation it leaves out (no
// autoscale policy) are nullopt.
struct WorkloadMetrics {
    std::string workload;
    std::optional<uint64_t> cpuUsageMillis;
    uint64_t cpuLimitMillis = core::kUnlimited;
    std::optional<uint64_t> memoryWorkingSet;
    uint64_t memoryLimit = core::kUnlimited;
    std::optional<uint64_t> cpuRecommendationMillis;
    std::optional<uint64_t> memoryRecommendation;

    bool operator==(const WorkloadMetrics&) const = default;
};

// The workloads of a whole exposition, sorted by name, from the families
// resized_workload_cpu_usage_millicores, resized_workload_cpu_limit_millicores,
// resized_workload_memory_working_set_bytes, resized_workload_memory_limit_bytes
// and resized_autoscale_recommendation{resource="cpu"|"memory"}; other lines
// are skipped.
std::vector<WorkloadMetrics> parseWorkloadMetrics(std::string_view exposition);

// WORKLOAD CPU CPU LIMIT CPU% MEM MEM LIMIT MEM%, and CPU REC / MEM REC when
// some workload has a recommendation. CPU in CPUs, memory in binary units,
// "-" for what is unknown, "max" for no limit (and then no percentage).
Table makeTopTable(const std::vector<WorkloadMetrics>& workloads);

// D-Bus key names: Workload, CpuUsageMillis, CpuMillis, MemoryWorkingSet,
// MemoryMax, CpuRecommendationMillis, MemoryRecommendation; unknown values
// left out, no limit UINT64_MAX.
nlohmann::json toJson(const WorkloadMetrics& workload);

}  // namespace resized::ctl
