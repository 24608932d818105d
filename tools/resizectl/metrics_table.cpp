#include "metrics_table.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cctype>
#include <cmath>
#include <cstdio>

#include "quantity_format.h"

namespace resized::ctl {

namespace {

bool isBlank(char c)
{
    return c == ' ' || c == '\t';
}

void skipBlanks(std::string_view& text)
{
    while (!text.empty() && isBlank(text.front()))
        text.remove_prefix(1);
}

// [a-zA-Z_:][a-zA-Z0-9_:]* for metric names, without ':' for label names.
std::string_view takeName(std::string_view& text, bool colonAllowed)
{
    size_t length = 0;
    for (; length < text.size(); ++length) {
        const auto c = static_cast<unsigned char>(text[length]);
        const bool letter = std::isalpha(c) || c == '_' || (colonAllowed && c == ':');
        if (!letter && (length == 0 || !std::isdigit(c)))
            break;
    }
    const std::string_view name = text.substr(0, length);
    text.remove_prefix(length);
    return name;
}

// A quoted label value, from its opening quote; nullopt without a closing one.
std::optional<std::string> takeQuoted(std::string_view& text)
{
    if (text.empty() || text.front() != '"')
        return std::nullopt;
    std::string value;
    for (size_t pos = 1; pos < text.size(); ++pos) {
        char c = text[pos];
        if (c == '"') {
            text.remove_prefix(pos + 1);
            return value;
        }
        if (c == '\\' && pos + 1 < text.size()) {
            c = text[++pos];
            if (c == 'n')
                c = '\n';
        }
        value += c;
    }
    return std::nullopt;
}

// {name="value",...}, a trailing comma allowed, as the format allows it.
std::optional<std::map<std::string, std::string>> takeLabels(std::string_view& text)
{
    std::map<std::string, std::string> labels;
    if (text.empty() || text.front() != '{')
        return labels;
    text.remove_prefix(1);
    for (;;) {
        skipBlanks(text);
        if (!text.empty() && text.front() == '}') {
            text.remove_prefix(1);
            return labels;
        }
        const std::string name(takeName(text, false));
        skipBlanks(text);
        if (name.empty() || text.empty() || text.front() != '=')
            return std::nullopt;
        text.remove_prefix(1);
        skipBlanks(text);
        auto value = takeQuoted(text);
        if (!value)
            return std::nullopt;
        labels[name] = std::move(*value);
        skipBlanks(text);
        if (!text.empty() && text.front() == ',')
            text.remove_prefix(1);
        else if (text.empty() || text.front() != '}')
            return std::nullopt;
    }
}

// Go's ParseFloat as the format uses it: from_chars, plus a leading "+"
// ("+Inf").
std::optional<double> parseValue(std::string_view text)
{
    if (text.starts_with('+'))
        text.remove_prefix(1);
    double value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || error != std::errc{} || end != text.data() + text.size())
        return std::nullopt;
    return value;
}

// A count as a whole number; nullopt for NaN or a negative value. Past
// UINT64_MAX - 1 (+Inf included) it is core::kUnlimited.
std::optional<uint64_t> wholeNumber(double value)
{
    if (std::isnan(value) || value < 0)
        return std::nullopt;
    if (value >= static_cast<double>(core::kUnlimited))
        return core::kUnlimited;
    return static_cast<uint64_t>(std::llround(value));
}

// The member of WorkloadMetrics a sample sets.
enum class Field { None, CpuUsage, CpuLimit, WorkingSet, MemoryLimit, CpuRecommendation, MemoryRecommendation };

Field fieldOf(const MetricSample& sample)
{
    if (sample.name == "resized_workload_cpu_usage_millicores")
        return Field::CpuUsage;
    if (sample.name == "resized_workload_cpu_limit_millicores")
        return Field::CpuLimit;
    if (sample.name == "resized_workload_memory_working_set_bytes")
        return Field::WorkingSet;
    if (sample.name == "resized_workload_memory_limit_bytes")
        return Field::MemoryLimit;
    if (sample.name == "resized_autoscale_recommendation") {
        const auto resource = sample.labels.find("resource");
        if (resource != sample.labels.end() && resource->second == "cpu")
            return Field::CpuRecommendation;
        if (resource != sample.labels.end() && resource->second == "memory")
            return Field::MemoryRecommendation;
    }
    return Field::None;
}

void store(WorkloadMetrics& workload, Field field, uint64_t value)
{
    switch (field) {
    case Field::None: break;
    case Field::CpuUsage: workload.cpuUsageMillis = value; break;
    case Field::CpuLimit: workload.cpuLimitMillis = value; break;
    case Field::WorkingSet: workload.memoryWorkingSet = value; break;
    case Field::MemoryLimit: workload.memoryLimit = value; break;
    case Field::CpuRecommendation: workload.cpuRecommendationMillis = value; break;
    case Field::MemoryRecommendation: workload.memoryRecommendation = value; break;
    }
}

// "35.0%" of the limit; "-" when usage is unknown or there is no limit.
std::string formatShare(const std::optional<uint64_t>& usage, uint64_t limit)
{
    if (!usage || limit == core::kUnlimited || limit == 0)
        return "-";
    std::array<char, 32> text{};
    std::snprintf(text.data(), text.size(), "%.1f%%", static_cast<double>(*usage) * 100 / static_cast<double>(limit));
    return text.data();
}

template <typename Format>
std::string formatKnown(const std::optional<uint64_t>& value, Format format)
{
    return value ? format(*value) : "-";
}

}  // namespace

std::optional<MetricSample> parseMetricSample(std::string_view line)
{
    skipBlanks(line);
    MetricSample sample;
    sample.name = takeName(line, true);
    if (sample.name.empty())
        return std::nullopt;
    auto labels = takeLabels(line);
    if (!labels || line.empty() || !isBlank(line.front()))
        return std::nullopt;
    sample.labels = std::move(*labels);
    skipBlanks(line);
    // An optional timestamp follows the value.
    const auto value = parseValue(line.substr(0, line.find_first_of(" \t")));
    if (!value)
        return std::nullopt;
    sample.value = *value;
    return sample;
}

std::vector<WorkloadMetrics> parseWorkloadMetrics(std::string_view exposition)
{
    std::map<std::string, WorkloadMetrics> workloads;
    while (!exposition.empty()) {
        const size_t end = exposition.find('\n');
        const std::string_view line = exposition.substr(0, end);
        exposition.remove_prefix(end == std::string_view::npos ? exposition.size() : end + 1);

        const auto sample = parseMetricSample(line);
        if (!sample)
            continue;
        const auto workload = sample->labels.find("workload");
        const Field field = fieldOf(*sample);
        const auto value = wholeNumber(sample->value);
        if (workload == sample->labels.end() || field == Field::None || !value)
            continue;
        store(workloads[workload->second], field, *value);
    }
    std::vector<WorkloadMetrics> sorted;
    for (auto& [name, workload] : workloads) {
        workload.workload = name;
        sorted.push_back(std::move(workload));
    }
    return sorted;
}

Table makeTopTable(const std::vector<WorkloadMetrics>& workloads)
{
    const bool recommendations = std::any_of(workloads.begin(), workloads.end(), [](const WorkloadMetrics& w) {
        return w.cpuRecommendationMillis || w.memoryRecommendation;
    });
    std::vector<std::string> headers{"WORKLOAD", "CPU", "CPU LIMIT", "CPU%", "MEM", "MEM LIMIT", "MEM%"};
    if (recommendations)
        headers.insert(headers.end(), {"CPU REC", "MEM REC"});
    Table table(std::move(headers));
    for (const auto& workload : workloads) {
        std::vector<std::string> cells{
            workload.workload,
            formatKnown(workload.cpuUsageMillis, formatCpus),
            formatCpus(workload.cpuLimitMillis),
            formatShare(workload.cpuUsageMillis, workload.cpuLimitMillis),
            formatKnown(workload.memoryWorkingSet, formatMemory),
            formatMemory(workload.memoryLimit),
            formatShare(workload.memoryWorkingSet, workload.memoryLimit),
        };
        if (recommendations) {
            cells.push_back(formatKnown(workload.cpuRecommendationMillis, formatCpus));
            cells.push_back(formatKnown(workload.memoryRecommendation, formatMemory));
        }
        table.addRow(std::move(cells));
    }
    return table;
}

nlohmann::json toJson(const WorkloadMetrics& workload)
{
    nlohmann::json object{
        {"Workload", workload.workload},
        {"CpuMillis", workload.cpuLimitMillis},
        {"MemoryMax", workload.memoryLimit},
    };
    const auto addKnown = [&object](const char* key, const std::optional<uint64_t>& value) {
        if (value)
            object[key] = *value;
    };
    addKnown("CpuUsageMillis", workload.cpuUsageMillis);
    addKnown("MemoryWorkingSet", workload.memoryWorkingSet);
    addKnown("CpuRecommendationMillis", workload.cpuRecommendationMillis);
    addKnown("MemoryRecommendation", workload.memoryRecommendation);
    return object;
}

}  // namespace resized::ctl
