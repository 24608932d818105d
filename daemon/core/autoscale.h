#pragma once

#include <chrono>
#include <cstdint>
#include <limits>
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
    uint32_t utilizationPercent = 0;  // of the current limit; > 0
    uint64_t min = 0;
    uint64_t max = kUnbounded;
    bool operator==(const Target&) const = default;
};

inline constexpr Micros kDefaultInterval{1'000'000};
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
    bool operator==(const Policy&) const = default;
};

// What is wrong with a policy, for io.resized1.Error.InvalidArgument
// ("CpuMinMillis 800 is above CpuMaxMillis 500"); nullopt when it is sound.
// Needs at least one target; utilization > 0; 0 < max; min <= max;
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
    // is within the tolerance of the target: what remember() records.
    uint64_t recommendation = 0;
    // What the limit should be now.
    uint64_t value = 0;
    Condition condition = Condition::DesiredWithinRange;
};

// Decides one resource's limit at `now`. `current` is the limit as read
// back; kUnbounded counts as target.max. `usage` is nullopt when the
// sample is missing or stale: then nothing is recommended and the limit only
// moves into the bounds if it lies outside them (the HPA never scales on
// metrics it lacks). Order as horizontal.go: recommendation and tolerance,
// stabilisation (up to the lowest recommendation of the up-window, down to
// the highest of the down-window, both including this one), then the rate
// policies (period start = current − increases + decreases inside the
// period; Percent rounds up when growing, down when shrinking; Absolute
// adds or subtracts the value) and the bounds.
Decision decide(uint64_t current, std::optional<uint64_t> usage, const Target& target, const Policy& policy,
                const History& history, Micros now);

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
