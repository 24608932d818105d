#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cgroup/driver_selector.h"
#include "cgroup/usage_files.h"
#include "core/cpu_assignment.h"
#include "store/state_store.h"

namespace resized::service {

// One managed workload's limits and what its cgroup uses now.
struct WorkloadUsage {
    std::string name;
    core::Resources limits;  // as last read back
    cgroup::Usage usage;
    // The CPU used since the previous sample of the same cgroup; nullopt at
    // a workload's first sample.
    std::optional<uint64_t> cpuMillicores;
    // The share of that time at least one of its tasks waited for a CPU
    // (PSI some), where the kernel keeps it per cgroup.
    std::optional<double> cpuPressureRatio;
};

// Reads the usage of every managed workload that runs. Only when asked:
// nothing is sampled in the background for metrics.
class UsageSampler {
public:
    UsageSampler(store::StateStore& store, cgroup::DriverSelector& drivers);

    std::vector<WorkloadUsage> sample();
    // One workload; nullopt when its cgroup cannot be read (it stopped).
    // Its CPU rate is measured since this sampler last sampled it. What
    // `kinds` leaves out reads as 0, or none.
    std::optional<WorkloadUsage> sample(const store::WorkloadRecord& record, cgroup::UsageFiles::Kinds kinds = {});

private:
    struct Previous {
        std::string cgroupPath;
        // Held open between samples: reading again costs a pread a file.
        std::optional<cgroup::UsageFiles> files;
        std::chrono::steady_clock::time_point at;
        uint64_t cpuNsec = 0;
        std::optional<uint64_t> cpuSomeUsec;
    };

    // The cgroup's counters, read through the files held for it where they
    // still read; opened anew otherwise (a cgroup re-created at the same
    // path, a unit restarted).
    cgroup::Usage readCounters(const store::WorkloadRecord& record, Previous& previous,
                               cgroup::UsageFiles::Kinds kinds);

    store::StateStore& store_;
    cgroup::DriverSelector& drivers_;
    std::map<std::string, Previous> previous_;
};

// The autoscaler's latest recommendation for one resource of a workload.
struct PublishedRecommendation {
    std::string workload;
    std::string resource;  // "cpu" (millicores) or "memory" (bytes)
    uint64_t value = 0;
};

// An application metric as last reported (ReportMetrics).
struct PublishedAppMetric {
    std::string workload;
    std::string name;
    double value = 0;
};

// Where an exclusive slice is drawn from, as kubelet's resource managers
// label it: the node's CPUs (a container's slice, a pod's bubble), or a
// pod's bubble (its members' slices).
enum class ExclusiveCpusSource { Node, Pod };

// The daemon's figures in the Prometheus text format (0.0.4): the update
// calls it answered and how long they took, drift it found, and the
// managed workloads' usage against their limits.
class Metrics {
public:
    explicit Metrics(UsageSampler& sampler);

    // An UpdateResources call was answered: "success" or the short name of
    // its error (Infeasible, InvalidArgument, …).
    void updateAnswered(std::string_view result, std::chrono::nanoseconds took);
    void driftDetected() { ++drift_; }
    // An UpdateResources call asking ExclusiveCpus drawn from `source` was
    // answered: "success" counts an allocation, anything else an
    // allocation error.
    void exclusiveCpusAnswered(ExclusiveCpusSource source, std::string_view result)
    {
        auto& counts = source == ExclusiveCpusSource::Pod ? podExclusive_ : nodeExclusive_;
        ++(result == "success" ? counts.allocations : counts.errors);
    }
    // How containers' CPUs are assigned now, once the CPU manager runs.
    void publishCpuAssignments(std::function<core::AssignmentCounts()> counts)
    {
        cpuAssignments_ = std::move(counts);
    }
    // Where the autoscaler's recommendations come from, once it runs; an
    // empty function while it does not.
    void publishRecommendations(std::function<std::vector<PublishedRecommendation>()> source)
    {
        recommendations_ = std::move(source);
    }
    void publishAppMetrics(std::function<std::vector<PublishedAppMetric>()> source)
    {
        appMetrics_ = std::move(source);
    }
    // The pools' disruptions allowed now (PoolStatus::allowedDisruptions),
    // by pool; a pool without a budget is left out.
    void publishAllowedDisruptions(std::function<std::map<std::string, uint64_t>()> source)
    {
        allowedDisruptions_ = std::move(source);
    }
    // A change lowering a member of `pool` for `reason` was applied.
    void poolDisrupted(const std::string& pool, std::string_view reason)
    {
        ++disruptions_[{pool, std::string(reason)}];
    }
    // A plan ended in `state` for `reason` ("" when it succeeded).
    void planFinished(std::string_view state, std::string_view reason)
    {
        ++plans_[{std::string(state), std::string(reason)}];
    }

    std::string exposition();

private:
    UsageSampler& sampler_;
    std::map<std::string, uint64_t, std::less<>> updatesByResult_;
    // Cumulative counts per upper bound, as the format wants them.
    std::vector<uint64_t> durationBuckets_;
    double durationSum_ = 0;
    uint64_t durationCount_ = 0;
    uint64_t drift_ = 0;
    struct AllocationCounts {
        uint64_t allocations = 0;
        uint64_t errors = 0;
    };
    AllocationCounts nodeExclusive_;
    AllocationCounts podExclusive_;
    std::function<std::vector<PublishedRecommendation>()> recommendations_;
    std::function<std::vector<PublishedAppMetric>()> appMetrics_;
    std::function<core::AssignmentCounts()> cpuAssignments_;
    std::function<std::map<std::string, uint64_t>()> allowedDisruptions_;
    // By pool and reason; by state and reason.
    std::map<std::pair<std::string, std::string>, uint64_t> disruptions_;
    std::map<std::pair<std::string, std::string>, uint64_t> plans_;
};

}  // namespace resized::service
