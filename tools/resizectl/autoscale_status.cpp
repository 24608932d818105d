#include "autoscale_status.h"

#include <map>
#include <vector>

#include "autoscale_options.h"
#include "core/quantity.h"
#include "quantity_format.h"
#include "status_format.h"

namespace resized::ctl {

namespace {

namespace autoscale = core::autoscale;

// "target 70%, limit between 500m and max"
template <typename Format>
std::string describeTarget(const autoscale::Target& target, Format format)
{
    return "target " + std::to_string(target.utilizationPercent) + "%, limit between " + format(target.min) +
           " and " + format(target.max);
}

// "window 5min, percent:100:15s, select max", the words of --scale-down-*.
std::string describeRules(const autoscale::Rules& rules)
{
    std::string text = "window " + formatTimespan(rules.stabilization);
    for (const auto& policy : rules.policies)
        text += ", " + formatRatePolicy(policy);
    return text + ", select " + std::string(selectName(rules.select));
}

std::string describeMode(autoscale::Mode mode)
{
    if (mode == autoscale::Mode::Recommend)
        return "recommend (publishes recommendations, changes nothing)";
    return std::string(modeName(mode));
}

}  // namespace

std::string formatAutoscaleBlock(const std::string& workload, const autoscale::Policy& policy,
                                 const Dictionary& autoscaleStatus, Clock::time_point now)
{
    std::vector<StatusField> fields{{"Mode", describeMode(policy.mode)}};
    if (policy.cpu)
        fields.emplace_back("CPU", describeTarget(*policy.cpu, core::formatCpuMillis));
    if (policy.memory)
        fields.emplace_back("Memory", describeTarget(*policy.memory, formatMemory));
    // What the application last reported, when it has.
    const auto reported = find<std::map<std::string, double>>(autoscaleStatus, "Metrics");
    for (const auto& [name, metric] : policy.metrics) {
        std::string line = formatMetric(name, metric);
        if (reported && reported->contains(name))
            line += ", reported " + formatFraction(reported->at(name));
        fields.emplace_back("Metric", line);
    }
    if (!policy.metrics.empty())
        fields.emplace_back("Metric max age", formatTimespan(policy.metricMaxAge));
    if (policy.cpuPressureTarget)
        fields.emplace_back("CPU pressure", "target " + formatFraction(*policy.cpuPressureTarget) + "%");
    if (policy.memoryPressureTarget)
        fields.emplace_back("Memory pressure", "target " + formatFraction(*policy.memoryPressureTarget) + "%");
    fields.emplace_back("Interval", formatTimespan(policy.interval));
    fields.emplace_back("Tolerance", formatFraction(policy.tolerance));
    fields.emplace_back("Scale up", describeRules(policy.scaleUp));
    fields.emplace_back("Scale down", describeRules(policy.scaleDown));

    const auto add = [&](const char* label, const char* key, std::string (*format)(uint64_t)) {
        if (const auto value = find<uint64_t>(autoscaleStatus, key))
            fields.emplace_back(label, format(*value));
    };
    add("CPU usage", "CpuUsageMillis", core::formatCpuMillis);
    add("CPU recommendation", "CpuRecommendationMillis", core::formatCpuMillis);
    add("Memory working set", "MemoryWorkingSet", formatMemory);
    add("Memory recommendation", "MemoryRecommendation", formatMemory);
    if (const auto condition = find<std::string>(autoscaleStatus, "Condition"))
        fields.emplace_back("Condition", *condition);
    // With one resource scaled, its own condition is the one above.
    const auto cpuCondition = find<std::string>(autoscaleStatus, "CpuCondition");
    const auto memoryCondition = find<std::string>(autoscaleStatus, "MemoryCondition");
    if (cpuCondition && memoryCondition) {
        fields.emplace_back("CPU condition", *cpuCondition);
        fields.emplace_back("Memory condition", *memoryCondition);
    }
    if (const auto lastScale = find<uint64_t>(autoscaleStatus, "LastScaleUSec"))
        fields.emplace_back("Last scaled", formatTimestamp(*lastScale, now));
    return formatFieldBlock(workload, fields);
}

}  // namespace resized::ctl
