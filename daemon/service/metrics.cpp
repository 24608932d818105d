#include "service/metrics.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <array>
#include <functional>
#include <set>
#include <sstream>

namespace resized::service {
namespace {

// Upper bounds in seconds, from a call answered from memory to one that
// waited for a slow memory reclaim.
constexpr std::array kDurationBounds{0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025,
                                     0.05,    0.1,    0.25,  0.5,    1.0,   2.5,   10.0};

// A label value as the text format quotes it.
std::string escaped(std::string_view value)
{
    std::string out;
    for (const char c : value) {
        if (c == '\\' || c == '"')
            out += '\\';
        if (c == '\n') {
            out += "\\n";
            continue;
        }
        out += c;
    }
    return out;
}

// The shortest text that reads back as the same value: byte counts keep
// every digit.
std::string number(double value) { return fmt::format("{}", value); }

void family(std::ostringstream& out, std::string_view name, std::string_view type, std::string_view help)
{
    out << "# HELP " << name << ' ' << help << "\n# TYPE " << name << ' ' << type << '\n';
}

// One sample per workload that has a value for it.
void perWorkload(std::ostringstream& out, const std::vector<WorkloadUsage>& workloads, std::string_view name,
                 std::string_view type, std::string_view help,
                 const std::function<std::optional<double>(const WorkloadUsage&)>& value)
{
    family(out, name, type, help);
    for (const auto& workload : workloads)
        if (const auto sample = value(workload))
            out << name << "{workload=\"" << escaped(workload.name) << "\"} " << number(*sample) << '\n';
}

std::optional<double> limited(const std::optional<uint64_t>& limit)
{
    if (!limit || *limit == core::kUnlimited)
        return std::nullopt;
    return static_cast<double>(*limit);
}

// Pressure stall time (PSI), where the kernel has it per cgroup (v2), under
// cAdvisor's names, so that dashboards made for containers read them too.
struct PressureFamily {
    std::string_view name;
    std::string_view help;
    std::optional<cgroup::PressureStall> cgroup::Usage::*resource;
    uint64_t cgroup::PressureStall::*time;
};
constexpr std::array kPressureFamilies{
    PressureFamily{"resized_workload_cpu_pressure_waiting_seconds_total",
                   "Time at least one task of the workload waited for a CPU (PSI some).", &cgroup::Usage::cpuPressure,
                   &cgroup::PressureStall::someUsec},
    PressureFamily{"resized_workload_cpu_pressure_stalled_seconds_total",
                   "Time every task of the workload waited for a CPU (PSI full).", &cgroup::Usage::cpuPressure,
                   &cgroup::PressureStall::fullUsec},
    PressureFamily{"resized_workload_memory_pressure_waiting_seconds_total",
                   "Time at least one task of the workload waited for memory (PSI some).",
                   &cgroup::Usage::memoryPressure, &cgroup::PressureStall::someUsec},
    PressureFamily{"resized_workload_memory_pressure_stalled_seconds_total",
                   "Time every task of the workload waited for memory (PSI full).", &cgroup::Usage::memoryPressure,
                   &cgroup::PressureStall::fullUsec},
};

}  // namespace

UsageSampler::UsageSampler(store::StateStore& store, cgroup::DriverSelector& drivers)
    : store_(store), drivers_(drivers)
{
}

std::vector<WorkloadUsage> UsageSampler::sample()
{
    std::vector<WorkloadUsage> samples;
    std::set<std::string> sampled;
    for (const auto& record : store_.workloads()) {
        if (!record.hasCgroup())
            continue;
        if (auto workload = sample(record)) {
            sampled.insert(record.name);
            samples.push_back(std::move(*workload));
        }
    }
    std::erase_if(previous_, [&](const auto& entry) { return !sampled.contains(entry.first); });
    return samples;
}

std::optional<WorkloadUsage> UsageSampler::sample(const store::WorkloadRecord& record,
                                                  cgroup::UsageFiles::Kinds kinds)
{
    WorkloadUsage workload{
        .name = record.name, .limits = record.actual, .usage = {}, .cpuMillicores = {}, .cpuPressureRatio = {}};
    auto& previous = previous_[record.name];
    try {
        workload.usage = readCounters(record, previous, kinds);
    } catch (const cgroup::CgroupError& error) {
        // Stopped since the store last heard of it: its events follow.
        spdlog::debug("{}: no usage: {}", record.name, error.what());
        previous_.erase(record.name);
        return std::nullopt;
    }
    const auto now = std::chrono::steady_clock::now();
    const std::optional<uint64_t> someUsec =
        workload.usage.cpuPressure ? std::optional(workload.usage.cpuPressure->someUsec) : std::nullopt;
    // A restarted container's counters start again in a new cgroup.
    if (previous.at != std::chrono::steady_clock::time_point{} && workload.usage.cpuNsec >= previous.cpuNsec &&
        now > previous.at) {
        const auto elapsed = std::chrono::duration_cast<std::chrono::nanoseconds>(now - previous.at);
        workload.cpuMillicores =
            (workload.usage.cpuNsec - previous.cpuNsec) * 1000 / static_cast<uint64_t>(elapsed.count());
        if (someUsec && previous.cpuSomeUsec && *someUsec >= *previous.cpuSomeUsec)
            workload.cpuPressureRatio =
                std::min(1.0, static_cast<double>(*someUsec - *previous.cpuSomeUsec) * 1000.0 /
                                  static_cast<double>(elapsed.count()));
    }
    previous.at = now;
    previous.cpuNsec = workload.usage.cpuNsec;
    previous.cpuSomeUsec = someUsec;
    return workload;
}

cgroup::Usage UsageSampler::readCounters(const store::WorkloadRecord& record, Previous& previous,
                                         cgroup::UsageFiles::Kinds kinds)
{
    if (previous.files && previous.cgroupPath == record.cgroupPath) {
        try {
            return previous.files->read(kinds);
        } catch (const cgroup::CgroupError&) {
            // Opened anew below.
        }
    }
    previous = {.cgroupPath = record.cgroupPath,
                .files = drivers_.forCgroup(record.cgroupPath).openUsage(record.cgroupPath),
                .at = {},
                .cpuNsec = 0,
                .cpuSomeUsec = std::nullopt};
    return previous.files->read(kinds);
}

Metrics::Metrics(UsageSampler& sampler) : sampler_(sampler), durationBuckets_(kDurationBounds.size()) {}

void Metrics::updateAnswered(std::string_view result, std::chrono::nanoseconds took)
{
    if (const auto counted = updatesByResult_.find(result); counted != updatesByResult_.end())
        ++counted->second;
    else
        updatesByResult_.emplace(result, 1);
    const double seconds = std::chrono::duration<double>(took).count();
    for (size_t bucket = 0; bucket < kDurationBounds.size(); ++bucket)
        if (seconds <= kDurationBounds[bucket])
            ++durationBuckets_[bucket];
    durationSum_ += seconds;
    ++durationCount_;
}

std::string Metrics::exposition()
{
    std::ostringstream out;
    family(out, "resized_update_requests_total", "counter", "UpdateResources calls answered, by result.");
    for (const auto& [result, count] : updatesByResult_)
        out << "resized_update_requests_total{result=\"" << escaped(result) << "\"} " << count << '\n';

    family(out, "resized_update_duration_seconds", "histogram",
           "Time from an UpdateResources call to its answer, limits read back.");
    for (size_t bucket = 0; bucket < kDurationBounds.size(); ++bucket)
        out << "resized_update_duration_seconds_bucket{le=\"" << number(kDurationBounds[bucket]) << "\"} "
            << durationBuckets_[bucket] << '\n';
    out << "resized_update_duration_seconds_bucket{le=\"+Inf\"} " << durationCount_ << '\n'
        << "resized_update_duration_seconds_sum " << number(durationSum_) << '\n'
        << "resized_update_duration_seconds_count " << durationCount_ << '\n';

    family(out, "resized_drift_total", "counter", "Limits found changed behind resized's back, and repaired.");
    out << "resized_drift_total " << drift_ << '\n';

    // Kubelet's resource managers' own names and labels, so that dashboards
    // made for kubelet read them as they are.
    const std::pair<const char*, const AllocationCounts&> sources[] = {{"node", nodeExclusive_},
                                                                       {"pod", podExclusive_}};
    family(out, "resource_manager_allocations_total", "counter",
           "Exclusive CPU slices (pod bubbles) given, grown or shrunk by UpdateResources, by where they are "
           "drawn from.");
    for (const auto& [source, counts] : sources)
        out << "resource_manager_allocations_total{resource_name=\"cpu\",source=\"" << source << "\"} "
            << counts.allocations << '\n';
    family(out, "resource_manager_allocation_errors_total", "counter",
           "UpdateResources calls asking ExclusiveCpus that were refused or failed.");
    for (const auto& [source, counts] : sources)
        out << "resource_manager_allocation_errors_total{resource_name=\"cpu\",source=\"" << source << "\"} "
            << counts.errors << '\n';
    family(out, "resource_manager_container_assignments", "gauge",
           "Containers by how their CPUs are assigned: a slice from the node or from their pod's bubble, or "
           "their pod's shared pool (as of the last pass over the containers).");
    const core::AssignmentCounts assignments = cpuAssignments_ ? cpuAssignments_() : core::AssignmentCounts{};
    for (const auto& [type, count] : {std::pair{"node_exclusive", assignments.nodeExclusive},
                                      std::pair{"pod_exclusive", assignments.podExclusive},
                                      std::pair{"pod_shared", assignments.podShared}})
        out << "resource_manager_container_assignments{resource_name=\"cpu\",assignment_type=\"" << type << "\"} "
            << count << '\n';

    const auto workloads = sampler_.sample();
    perWorkload(out, workloads, "resized_workload_cpu_usage_millicores", "gauge",
                "CPU used since the previous scrape, in millicores.",
                [](const WorkloadUsage& w) -> std::optional<double> {
                    if (!w.cpuMillicores)
                        return std::nullopt;
                    return static_cast<double>(*w.cpuMillicores);
                });
    perWorkload(out, workloads, "resized_workload_cpu_usage_seconds_total", "counter",
                "CPU time used by the workload's current cgroup.",
                [](const WorkloadUsage& w) { return static_cast<double>(w.usage.cpuNsec) / 1e9; });
    perWorkload(out, workloads, "resized_workload_cpu_throttled_periods_total", "counter",
                "CFS periods in which the workload was throttled.",
                [](const WorkloadUsage& w) { return static_cast<double>(w.usage.throttledPeriods); });
    perWorkload(out, workloads, "resized_workload_cpu_limit_millicores", "gauge",
                "The CPU limit the cgroup holds, where it has one.",
                [](const WorkloadUsage& w) { return limited(w.limits.cpuMillis); });
    perWorkload(out, workloads, "resized_workload_memory_working_set_bytes", "gauge",
                "Memory in use minus inactive file pages, as the kubelet counts it.",
                [](const WorkloadUsage& w) { return static_cast<double>(w.usage.workingSetBytes()); });
    perWorkload(out, workloads, "resized_workload_memory_limit_bytes", "gauge",
                "The memory limit (MemoryMax) the cgroup holds, where it has one.",
                [](const WorkloadUsage& w) { return limited(w.limits.memoryMax); });
    perWorkload(out, workloads, "resized_workload_oom_kills_total", "counter",
                "Processes the kernel killed in the workload's current cgroup for lack of memory.",
                [](const WorkloadUsage& w) { return static_cast<double>(w.usage.oomKills); });
    perWorkload(out, workloads, "resized_workload_cpu_pressure_ratio", "gauge",
                "The share of the time since the previous scrape at least one task of the workload waited for a "
                "CPU (PSI some, cgroup v2).",
                [](const WorkloadUsage& w) { return w.cpuPressureRatio; });
    for (const auto& pressure : kPressureFamilies)
        perWorkload(out, workloads, pressure.name, "counter", pressure.help, [&pressure](const WorkloadUsage& w) {
            const auto& stall = w.usage.*pressure.resource;
            return stall ? std::optional(static_cast<double>((*stall).*pressure.time) / 1e6) : std::nullopt;
        });

    family(out, "resized_autoscale_recommendation", "gauge",
           "The limit the autoscaler recommends now: millicores for cpu, bytes for memory.");
    if (recommendations_)
        for (const auto& recommendation : recommendations_())
            out << "resized_autoscale_recommendation{workload=\"" << escaped(recommendation.workload)
                << "\",resource=\"" << recommendation.resource << "\"} " << recommendation.value << '\n';

    family(out, "resized_workload_app_metric", "gauge",
           "The value the application last reported of a metric (ReportMetrics).");
    if (appMetrics_)
        for (const auto& metric : appMetrics_())
            out << "resized_workload_app_metric{workload=\"" << escaped(metric.workload) << "\",name=\""
                << escaped(metric.name) << "\"} " << metric.value << '\n';

    family(out, "resized_pool_disruptions_total", "counter",
           "Changes lowering a pool's member that were applied, by pool and reason (the budgets' count).");
    for (const auto& [key, count] : disruptions_)
        out << "resized_pool_disruptions_total{pool=\"" << escaped(key.first) << "\",reason=\"" << key.second
            << "\"} " << count << '\n';
    family(out, "resized_pool_allowed_disruptions", "gauge",
           "How many more of a pool's members may be lowered now for reason manual, under its budgets.");
    if (allowedDisruptions_)
        for (const auto& [pool, allowed] : allowedDisruptions_())
            out << "resized_pool_allowed_disruptions{pool=\"" << escaped(pool) << "\"} " << allowed << '\n';
    family(out, "resized_plans_total", "counter", "Plans that ended, by state and reason.");
    for (const auto& [key, count] : plans_)
        out << "resized_plans_total{state=\"" << key.first << "\",reason=\"" << key.second << "\"} " << count
            << '\n';
    return out.str();
}

}  // namespace resized::service
