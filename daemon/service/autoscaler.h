#pragma once

#include <chrono>
#include <deque>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/autoscale.h"
#include "service/event_loop.h"
#include "service/metrics.h"
#include "service/resource_manager.h"
#include "store/autoscale_store.h"

namespace resized::service {

// What the autoscaler sees of one workload and why it did or did not act:
// the status' `AutoscaleStatus`.
struct AutoscaleStatus {
    std::optional<uint64_t> cpuUsageMillis;
    std::optional<uint64_t> memoryWorkingSet;
    std::optional<uint64_t> cpuRecommendationMillis;
    std::optional<uint64_t> memoryRecommendation;
    // A core::autoscale::Condition's name, or "Deferred" while admission
    // makes the change wait for capacity; "" before the first decision.
    // With both resources scaled, the more pressing of theirs.
    std::string condition;
    // Each resource's own core::autoscale::Condition, so that a CPU held
    // by its rate is not hidden behind a memory at its minimum.
    std::string cpuCondition;
    std::string memoryCondition;
    uint64_t lastScaleUsec = 0;
    // The application metrics last reported (ReportMetrics), and how long
    // ago, at the time of the view.
    std::map<std::string, double> metrics;
    std::map<std::string, uint64_t> metricsAgeUsec;
};

// The policy half of the scaling loop (design.md §1b): samples each
// workload that has a policy at the policy's interval, decides with
// core::autoscale (the HPA's behaviour), and sends the change through the
// manager's admission as actor "autoscale". Its memory — recommendations and
// scale events — is written to the store as it grows, so a restart keeps
// the windows. Runs on the event loop; sampling reads a few cgroup files.
class Autoscaler {
public:
    Autoscaler(EventLoop& loop, ResourceManager& manager, store::AutoscaleStore& store,
               cgroup::DriverSelector& drivers, store::StateStore& state);
    // Writes the recommendations not written yet.
    ~Autoscaler();
    Autoscaler(const Autoscaler&) = delete;
    Autoscaler& operator=(const Autoscaler&) = delete;

    // Takes up the stored policies.
    void start();

    // Why this machine cannot follow `policy` (a pressure target where
    // cgroups keep no PSI), for InvalidArgument; nullopt when it can.
    std::optional<std::string> refusal(const core::autoscale::Policy& policy) const;

    // `workload` is a canonical name the manager resolved.
    void setPolicy(const std::string& workload, const core::autoscale::Policy& policy);
    // False when the workload had no policy.
    bool removePolicy(const std::string& workload);
    // Takes the application's metrics of `workload`, stamped now (design.md
    // §1c, ReportMetrics); its next sample decides with them. Throws
    // ResizeError: InvalidArgument for a value that is no finite number of
    // 0 or more, NoSuchWorkload when the workload has no policy.
    void report(const std::string& workload, const std::map<std::string, double>& values);
    // The manager changed a workload's record: sampling reads it from here
    // rather than from the store.
    void workloadChanged(const store::WorkloadRecord& record);

    struct View {
        core::autoscale::Policy policy;
        AutoscaleStatus status;
    };
    std::optional<View> view(const std::string& workload) const;

    std::vector<PublishedRecommendation> recommendations() const;
    std::vector<PublishedAppMetric> appMetrics() const;

private:
    using Clock = std::chrono::steady_clock;
    using ScaleEvents = std::vector<std::pair<std::string_view, core::autoscale::ScaleEvent>>;
    struct Reported {
        double value = 0;
        Clock::time_point at;
    };
    // One resource's pressure stalls, for its pressure target: the stall
    // counter at the previous sample, the share of the time stalled since,
    // and the PSI trigger that samples at once when the stalls cross the
    // target, rather than at the next interval.
    struct PressureWatch {
        std::string cgroup;  // the counter's and the trigger's
        std::optional<uint64_t> someUsec;
        Clock::time_point sampledAt;
        std::optional<double> percent;
        // Declared before its source: the source goes first.
        std::optional<cgroup::FileDescriptor> trigger;
        EventSource triggered;
    };
    struct Watched {
        core::autoscale::Policy policy;
        PressureWatch cpuPressure;
        PressureWatch memoryPressure;
        // The application's metrics, by name, as last reported.
        std::map<std::string, Reported> reported;
        core::autoscale::History cpu;
        core::autoscale::History memory;
        AutoscaleStatus status;
        // The working sets sampled over the scale-down window, as a
        // decreasing sequence (a sliding-window maximum): its front is the
        // peak, below which memory is never scaled.
        std::deque<std::pair<core::autoscale::Micros, uint64_t>> workingSetPeaks;
        std::optional<uint64_t> oomKills;  // at the previous sample of this cgroup
        std::string oomCgroup;
        // The change sent to the manager and not answered yet.
        bool changing = false;
        // What the last change waiting for capacity asked, not sent again.
        core::Resources deferred;
        // Its scale events: they count in the rate periods once it runs.
        ScaleEvents deferredEvents;
        // The workload as the manager last announced it (or the store held
        // it): reading the store at every sample is a query and three JSON
        // documents, the largest part of a sample's cost.
        std::optional<store::WorkloadRecord> known;
        // A workload the store does not hold, as its source last told.
        std::optional<store::WorkloadRecord> resolved;
        std::chrono::steady_clock::time_point resolvedAt;
        // This workload's place in schedule_: when its next sample is due.
        std::multimap<Clock::time_point, std::string>::iterator due;
    };

    // Puts the workload in the schedule for its next sample, one interval
    // after `lastDue`, or from now for a new policy.
    void schedule(const std::string& workload, Watched& watched, std::optional<Clock::time_point> lastDue);
    void unschedule(Watched& watched);
    // Samples the workloads that are due, a batch at a time.
    void sampleDue();
    // Sets the timer for the first workload in the schedule.
    void wakeForNext();
    void tick(const std::string& workload, Watched& watched);
    // The callback for the manager's answer about `workload`: `then` runs
    // with its entry, no change under way any more; nothing runs once the
    // policy or this autoscaler is gone.
    UpdateCallback answerFor(const std::string& workload, std::function<void(Watched&, UpdateResult)> then);
    // False when the cgroup cannot be read.
    bool sampleAndDecide(const std::string& workload, Watched& watched, const store::WorkloadRecord& record);
    void decide(const std::string& workload, Watched& watched, const store::WorkloadRecord& record,
                const WorkloadUsage& usage);
    // Sends the change through the manager's admission, as actor
    // "autoscale"; `grows`: the node counts more for it after the change.
    void send(const std::string& workload, Watched& watched, core::Resources request, ScaleEvents events,
              bool grows);
    // The changes made: into the history the rate policies read, and the store.
    void recordEvents(const std::string& workload, Watched& watched, const ScaleEvents& events);
    // A change that waited for capacity and has run at last counts from
    // the time it ran; one that failed or gave way to another, not at all.
    void settleDeferred(const std::string& workload, Watched& watched, const store::WorkloadRecord& record);
    // The change it waits for capacity with is not wanted any more.
    void withdrawDeferred(const std::string& workload, Watched& watched);
    // One resource of one decision: what it reads and where it writes.
    struct Resource {
        std::string_view name;  // "cpu", "memory"
        core::autoscale::Target target;
        uint64_t current = 0;
        std::optional<uint64_t> usage;
        // The policy's metrics of this resource, with their values now.
        std::vector<core::autoscale::MetricReading> metrics;
        core::autoscale::History& history;
        std::optional<uint64_t>& recommendation;  // the status'
        std::string& condition;                   // the status'
        std::optional<uint64_t>& requested;       // the change's
    };
    // What one decision asks for, and why.
    struct Change {
        core::Resources request;
        ScaleEvents events;
        std::vector<core::autoscale::Condition> conditions;
    };
    void decideOne(const std::string& workload, Watched& watched, const Resource& resource, bool oomKilled,
                   core::autoscale::Micros at, Change& change);
    // The lowest memory limit now: the peak working set over the
    // scale-down window, `workingSet` included, plus the margin.
    static uint64_t workingSetFloor(Watched& watched, uint64_t workingSet, core::autoscale::Micros at);
    // The stalls of each resource with a pressure target, from `usage` of
    // `record`'s cgroup; arms its trigger on a cgroup it has none on.
    void followPressure(const std::string& workload, Watched& watched, const store::WorkloadRecord& record,
                        const cgroup::Usage& usage);
    void armTrigger(const std::string& workload, Watched& watched, PressureWatch& pressure,
                    cgroup::PressureResource resource, double target, const std::string& cgroup);
    // The readings of the policy's metrics of `resource`, its pressure
    // target among them: a value older than MetricMaxAgeUSec is missing.
    static std::vector<core::autoscale::MetricReading> readings(const Watched& watched,
                                                                core::autoscale::MetricResource resource);
    void remember(const std::string& workload, const core::autoscale::Policy& policy, std::string_view resource,
                  core::autoscale::History& history, core::autoscale::Recommendation recommendation);
    void writeRecommendations();

    EventLoop& loop_;
    ResourceManager& manager_;
    store::AutoscaleStore& store_;
    store::StateStore& state_;
    cgroup::DriverSelector& drivers_;
    UsageSampler sampler_;
    std::optional<std::string> pressureUnavailable_;
    std::map<std::string, Watched> watched_;
    // One timer for every workload: one wake-up of the loop samples all
    // that are due by then, rather than one wake-up each.
    std::multimap<Clock::time_point, std::string> schedule_;
    EventSource wake_;
    Clock::time_point wakeAt_;
    // Recommendations are written once a second, all in one transaction,
    // rather than one transaction per workload and interval: at a thousand
    // workloads that is what sampling costs most. A crash forgets at most
    // that second of them.
    std::vector<store::AutoscaleStore::NewRecommendation> unwritten_;
    EventSource writeTimer_;
    // The manager may answer while it winds down, after this is gone: its
    // callbacks hold this only weakly.
    std::shared_ptr<const bool> alive_ = std::make_shared<const bool>(true);
};

}  // namespace resized::service
