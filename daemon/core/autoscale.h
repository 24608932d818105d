#pragma once

#include <chrono>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

// The Horizontal Pod Autoscaler's behaviour (Kubernetes,
// pkg/controller/podautoscaler/horizontal.go) applied to one limit of one
// workload instead of a replica count: the recommendation with its
// tolerance, stabilisation over the recommendation history, rate policies
// measured from the value at the start of each period, selectPolicy, then
// the bounds. Pure arithmetic on values in one unit (millicores or bytes);
// the caller samples, keeps the history and applies the result.
namespace resized::core::autoscale {

// Microseconds of CLOCK_REALTIME: the history is durable, so its times must
// mean the same after a restart.
using Micros = std::chrono::microseconds;

inline constexpr uint64_t kUnbounded = std::numeric_limits<uint64_t>::max();

enum class RateKind { Percent, Absolute };
// Which of several rate policies wins: the one allowing the largest change
// (Max), the smallest (Min), or none may change anything (Disabled).
enum class Select { Max, Min, Disabled };
enum class Mode { Auto, Recommend };

struct RatePolicy {
    RateKind kind = RateKind::Percent;
    uint64_t value = 0;  // percent, or millicores / bytes for Absolute
    Micros period{0};
    bool operator==(const RatePolicy&) const = default;
};

// HPAScalingRules: one direction's behaviour.
struct Rules {
    Micros stabilization{0};
    std::vector<RatePolicy> policies;
    Select select = Select::Max;
    bool operator==(const Rules&) const = default;
};

// One resource the policy scales, in its unit.
struct Target {
    // Of the current limit; 0 only when application metrics alone scale
    // the resource.
    uint32_t utilizationPercent = 0;
    uint64_t min = 0;
    uint64_t max = kUnbounded;
    bool operator==(const Target&) const = default;
};

// Application metrics (design.md §1c, `Metrics`): a value the application
// or its monitoring reports (ReportMetrics), such as a latency in
// milliseconds or frames per second, and the value it should have.
enum class Direction { LowerIsBetter, HigherIsBetter };
enum class MetricResource { Cpu, Memory };
struct MetricTarget {
    double target = 0;  // > 0
    Direction direction = Direction::LowerIsBetter;
    MetricResource resource = MetricResource::Cpu;
    bool operator==(const MetricTarget&) const = default;
};

// The lowest limits a policy sets unless it names its own (VPA's minimums):
// a default above the policy's maximum is the maximum.
inline constexpr uint64_t kDefaultCpuMinMillis = 25;
inline constexpr uint64_t kDefaultMemoryMinBytes = 250ull << 20;
// A memory recommendation is never below the peak working set over the
// scale-down window plus this share of it (VPA's safety margin): the next
// burst of allocations must not meet an OOM kill.
inline constexpr double kWorkingSetMargin = 0.15;

inline constexpr Micros kDefaultInterval{1'000'000};
inline constexpr Micros kDefaultMetricMaxAge{10'000'000};
inline constexpr double kDefaultTolerance = 0.1;

// SetAutoscalePolicy's dictionary, decoded; defaults as design.md §1b.
struct Policy {
    std::optional<Target> cpu;     // millicores
    std::optional<Target> memory;  // bytes
    Micros interval = kDefaultInterval;
    double tolerance = kDefaultTolerance;
    Rules scaleUp{Micros{0}, {{RateKind::Percent, 100, Micros{15'000'000}}}, Select::Max};
    Rules scaleDown{Micros{300'000'000}, {{RateKind::Percent, 100, Micros{15'000'000}}}, Select::Max};
    Mode mode = Mode::Auto;
    // By metric name.
    std::map<std::string, MetricTarget> metrics;
    // A reported value older than this is missing.
    Micros metricMaxAge = kDefaultMetricMaxAge;
    // CpuPressureTarget, MemoryPressureTarget (design.md §1c): the percent
    // of time some task of the workload may stall for the resource (PSI
    // `some`), a LowerIsBetter metric of that resource. cgroup v2 only.
    std::optional<double> cpuPressureTarget;
    std::optional<double> memoryPressureTarget;
    bool operator==(const Policy&) const = default;

    const std::optional<double>& pressureTarget(MetricResource resource) const
    {
        return resource == MetricResource::Cpu ? cpuPressureTarget : memoryPressureTarget;
    }
};

// Whether application metrics or a pressure target scale `resource`.
bool scaledByMetrics(const Policy& policy, MetricResource resource);

// What is wrong with a policy, for io.resized1.Error.InvalidArgument
// ("CpuMinMillis 800 is above CpuMaxMillis 500"); nullopt when it is sound.
// Needs at least one target (a utilization, a metric or a pressure target;
// pressure in (0, 100]); utilization > 0; 0 < max; min <= max;
// interval >= 10 ms; 0 <= tolerance < 1; in each direction at least one rate
// policy unless its select is Disabled, every one a value > 0 and a period > 0.
std::optional<std::string> invalidity(const Policy& policy);

// A recommendation as computed before stabilisation, and when.
struct Recommendation {
    Micros at{0};
    uint64_t value = 0;
    bool operator==(const Recommendation&) const = default;
};

// A change the autoscaler made to the limit.
struct ScaleEvent {
    Micros at{0};
    uint64_t from = 0;
    uint64_t to = 0;
    bool operator==(const ScaleEvent&) const = default;
};

// The memory of one resource of one workload.
struct History {
    std::vector<Recommendation> recommendations;
    std::vector<ScaleEvent> events;
    bool operator==(const History&) const = default;
};

// Why the decided value is what it is; AutoscaleStatus's `Condition`.
// (`Deferred` and `BudgetExhausted` are the admission's, not the decision's.)
enum class Condition {
    DesiredWithinRange,
    ScaleUpStabilized,
    ScaleDownStabilized,
    ScaleUpLimit,
    ScaleDownLimit,
    AtMax,
    AtMin,
};
std::string_view conditionName(Condition condition);

struct Decision {
    // ceil(usage × 100 / utilization), or `current` while the utilization
    // is within the tolerance of the target (the HPA's test: a whole
    // percent, truncated, and 1 − tolerance ≤ utilization / target ≤
    // 1 + tolerance in doubles): what remember() records. The bound itself
    // for a limit found outside the bounds.
    uint64_t recommendation = 0;
    // What the limit should be now.
    uint64_t value = 0;
    Condition condition = Condition::DesiredWithinRange;
};

// Decides one resource's limit at `now`. `current` is the limit as read
// back; kUnbounded counts as target.max. `usage` is nullopt when the
// sample is missing or stale: then nothing is recommended and the limit only
// moves into the bounds if it lies outside them (the HPA never scales on
// metrics it lacks). A limit outside the bounds goes straight to the
// nearest bound, as horizontal.go moves a replica count outside them,
// before anything else. Otherwise, in its order: recommendation and tolerance,
// stabilisation (up to the lowest recommendation of the up-window, down to
// the highest of the down-window, both including this one), then the rate
// policies (period start = current − increases + decreases inside the
// period, below 0 if need be, as the HPA's; Percent rounds up when growing, down when shrinking; Absolute
// adds or subtracts the value) and the bounds.
//
// `metrics` are the policy's metrics of this resource, each with its value
// (nullopt: missing or stale). Each recommends on the current limit L:
// ceil(L × value / Target) (LowerIsBetter) or ceil(L × Target / value)
// (HigherIsBetter), L itself within the tolerance; the largest
// recommendation of the utilization and the metrics wins, and while any of
// them is missing it never lowers the limit (the HPA's rules for several
// metrics). Without a limit (kUnbounded), the first comes from the usage,
// ceil(usage / utilization), with neither stabilisation nor rates.
struct MetricReading {
    MetricTarget target;
    std::optional<double> value;
};
Decision decide(uint64_t current, std::optional<uint64_t> usage, const Target& target, const Policy& policy,
                const History& history, Micros now, const std::vector<MetricReading>& metrics = {});

// One metric's recommendation for a limit of `current`.
uint64_t recommendFromMetric(uint64_t current, double value, const MetricTarget& metric, double tolerance);

// Records a recommendation and drops those older than both windows.
void remember(History& history, const Policy& policy, Recommendation recommendation);
// Records a change made and drops events older than the longest period.
void recordScale(History& history, const Policy& policy, ScaleEvent event);

// How far back remember() keeps recommendations (the longer window) and
// recordScale() events (the longest rate period): what a durable copy of
// the history may drop too.
Micros longestWindow(const Policy& policy);
Micros longestPeriod(const Policy& policy);

// After an OOM kill: at least max(limit + 100 MiB, ceil(limit × 1.2)), never
// above target.max (VPA's bump). An unbounded limit stays unbounded.
uint64_t oomBump(uint64_t currentLimit, const Target& target);

}  // namespace resized::core::autoscale
