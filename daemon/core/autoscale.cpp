#include "core/autoscale.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

namespace resized::core::autoscale {
namespace {

// Products of a 64-bit value and a percentage or utilisation fit in 128 bits
// without loss, so no bound of a limit (bytes up to 2^64 - 1) can overflow.
using Wide = unsigned __int128;

constexpr uint64_t kOomHeadroom = 100ULL << 20;  // 100 MiB
constexpr Micros kShortestInterval{10'000};

Wide ceilDiv(Wide dividend, Wide divisor)
{
    return dividend / divisor + (dividend % divisor != 0);
}

uint64_t saturated(Wide value)
{
    return value >= kUnbounded ? kUnbounded : static_cast<uint64_t>(value);
}

// A limit of 0 stops a cgroup dead (memory.max) or throttles it forever
// (cpu.max), so no decision ever goes below 1 whatever the minimum says.
uint64_t floorOf(const Target& target)
{
    return std::max<uint64_t>(target.min, 1);
}

// The HPA's tolerance test, operation for operation, so that a case on the
// boundary falls where it falls there: the utilization is a whole percent,
// truncated (metrics/utilization.go: int32(usage × 100 / request)), its
// ratio to the target a float64, and the tolerance a closed interval around
// 1 (replica_calculator.go, Tolerances.isWithin). Exact arithmetic would
// scale at 970 of 1000 with a tolerance of 0.03, where the HPA keeps 1000.
bool withinTolerance(double ratio, double tolerance)
{
    return 1.0 - tolerance <= ratio && ratio <= 1.0 + tolerance;
}

uint64_t recommend(uint64_t current, uint64_t usage, uint32_t utilizationPercent, double tolerance)
{
    // A limit of 0 has no utilization to be near the target: any usage is
    // too much for it.
    if (current > 0) {
        const Wide utilization = Wide{usage} * 100 / current;
        if (withinTolerance(static_cast<double>(utilization) / utilizationPercent, tolerance))
            return current;
    }
    return saturated(ceilDiv(Wide{usage} * 100, utilizationPercent));
}

// The current limit, moved just far enough to lie between the lowest
// recommendation of the up-window and the highest of the down-window, both
// including this one: a rise must have lasted the whole up-window, a fall
// the whole down-window.
uint64_t stabilize(uint64_t current, uint64_t recommendation, const Policy& policy, const History& history,
                   Micros now)
{
    uint64_t lowestRecent = recommendation;
    uint64_t highestRecent = recommendation;
    for (const auto& past : history.recommendations) {
        if (past.at > now - policy.scaleUp.stabilization)
            lowestRecent = std::min(lowestRecent, past.value);
        if (past.at > now - policy.scaleDown.stabilization)
            highestRecent = std::max(highestRecent, past.value);
    }
    return std::clamp(current, lowestRecent, highestRecent);
}

// Signed: a period start may lie below 0 (below).
using Signed = __int128;

// The limit as it was when the period began: every change made inside the
// period, up or down, is undone. As the HPA's periodStartReplicas, it is
// not stopped at 0: after someone lowered the limit below what the
// autoscaler added inside the period, that growth still counts, and no more
// is allowed until it leaves the period.
Signed periodStart(uint64_t current, const std::vector<ScaleEvent>& events, Micros period, Micros now)
{
    Signed start = current;
    for (const auto& event : events)
        if (event.at > now - period)
            start += static_cast<Signed>(event.from) - static_cast<Signed>(event.to);
    return start;
}

// ceil(amount × percent / 100); division truncates towards 0, which for a
// negative amount is already up.
Signed percentOf(Signed amount, uint64_t percent)
{
    const Signed product = amount * static_cast<Signed>(percent);
    return product >= 0 ? (product + 99) / 100 : product / 100;
}

// Rounds up: growing by a percentage of a small limit must still grow it.
Signed grown(Signed start, const RatePolicy& rate)
{
    return start + (rate.kind == RateKind::Percent ? percentOf(start, rate.value) : Signed{rate.value});
}

Signed shrunk(Signed start, const RatePolicy& rate)
{
    // Any share of no limit at all is still no limit: from there, anything goes.
    if (start >= Signed{kUnbounded})
        return 0;
    return start - (rate.kind == RateKind::Percent ? percentOf(start, rate.value) : Signed{rate.value});
}

// The proposal of each rate policy from its period's start, chosen among as
// `select` says; nullopt when no policy proposes anything.
template <typename Propose>
std::optional<Signed> selected(uint64_t current, const Rules& rules, const History& history, Micros now,
                               bool largestValue, Propose propose)
{
    std::optional<Signed> chosen;
    for (const auto& rate : rules.policies) {
        const Signed proposed = propose(periodStart(current, history.events, rate.period, now), rate);
        chosen = !chosen ? proposed : largestValue ? std::max(*chosen, proposed) : std::min(*chosen, proposed);
    }
    return chosen;
}

// The highest value the scale-up policies allow now; never below `current`,
// as changes in the period may have used up more than a policy allows.
uint64_t scaleUpLimit(uint64_t current, const Rules& rules, const History& history, Micros now)
{
    if (rules.select == Select::Disabled)
        return current;
    const auto limit = selected(current, rules, history, now, rules.select == Select::Max, grown);
    return limit && *limit > Signed{current} ? saturated(static_cast<Wide>(*limit)) : current;
}

// The lowest value the scale-down policies allow now; never above `current`.
// The largest change (Max) is the lowest proposal.
uint64_t scaleDownLimit(uint64_t current, const Rules& rules, const History& history, Micros now)
{
    if (rules.select == Select::Disabled)
        return current;
    const auto limit = selected(current, rules, history, now, rules.select == Select::Min, shrunk);
    if (!limit || *limit >= Signed{current})
        return current;
    return *limit <= 0 ? 0 : static_cast<uint64_t>(*limit);
}

Decision limitScaleUp(Decision decision, uint64_t current, const Target& target, const Policy& policy,
                      const History& history, Micros now)
{
    const uint64_t rateLimit = scaleUpLimit(current, policy.scaleUp, history, now);
    const bool rateBinds = rateLimit < target.max;
    const uint64_t highestAllowed = rateBinds ? rateLimit : target.max;
    if (decision.value > highestAllowed)
        return {decision.recommendation, highestAllowed, rateBinds ? Condition::ScaleUpLimit : Condition::AtMax};
    return decision;
}

Decision limitScaleDown(Decision decision, uint64_t current, const Target& target, const Policy& policy,
                        const History& history, Micros now)
{
    const uint64_t rateLimit = scaleDownLimit(current, policy.scaleDown, history, now);
    const bool rateBinds = rateLimit > floorOf(target);
    const uint64_t lowestAllowed = rateBinds ? rateLimit : floorOf(target);
    if (decision.value < lowestAllowed)
        return {decision.recommendation, lowestAllowed, rateBinds ? Condition::ScaleDownLimit : Condition::AtMin};
    return decision;
}

// The bounds win over every decision.
Decision withinBounds(Decision decision, const Target& target)
{
    if (decision.value > target.max)
        return {decision.recommendation, target.max, Condition::AtMax};
    if (decision.value < floorOf(target))
        return {decision.recommendation, floorOf(target), Condition::AtMin};
    return decision;
}

struct TargetKeys {
    std::string_view utilization;
    std::string_view min;
    std::string_view max;
};
constexpr TargetKeys kCpuKeys{"CpuTargetUtilization", "CpuMinMillis", "CpuMaxMillis"};
constexpr TargetKeys kMemoryKeys{"MemoryTargetUtilization", "MemoryMinBytes", "MemoryMaxBytes"};

std::optional<std::string> targetInvalidity(const std::optional<Target>& target, const TargetKeys& keys)
{
    if (!target)
        return std::nullopt;
    if (target->utilizationPercent == 0)
        return std::string(keys.utilization) + " must be above 0";
    if (target->max == 0)
        return std::string(keys.max) + " must be above 0";
    if (target->min > target->max)
        return std::string(keys.min) + " " + std::to_string(target->min) + " is above " + std::string(keys.max) +
               " " + std::to_string(target->max);
    return std::nullopt;
}

std::optional<std::string> rulesInvalidity(const Rules& rules, std::string_view policiesKey,
                                           std::string_view selectKey)
{
    const std::string key(policiesKey);
    if (rules.policies.empty() && rules.select != Select::Disabled)
        return key + " is empty; it needs a policy unless " + std::string(selectKey) + " is Disabled";
    for (const auto& rate : rules.policies) {
        if (rate.value == 0)
            return key + " has a policy with value 0; every value must be above 0";
        if (rate.period.count() <= 0)
            return key + " has a policy with period " + std::to_string(rate.period.count()) +
                   "; every period must be above 0";
    }
    return std::nullopt;
}

std::string toleranceText(double tolerance)
{
    std::ostringstream text;
    text << tolerance;
    return text.str();
}

std::optional<std::string> metricInvalidity(const std::string& name, const MetricTarget& metric)
{
    if (name.empty())
        return std::string("a metric in Metrics has no name");
    // Written so that NaN fails too.
    if (!(metric.target > 0) || metric.target == std::numeric_limits<double>::infinity())
        return "the Target of metric \"" + name + "\" must be a number above 0";
    return std::nullopt;
}

std::optional<std::string> pressureInvalidity(const char* key, const std::optional<double>& target)
{
    // Written so that NaN fails too.
    if (target && !(*target > 0 && *target <= 100))
        return std::string(key) + " must be a percent above 0 and at most 100";
    return std::nullopt;
}

}  // namespace

bool scaledByMetrics(const Policy& policy, MetricResource resource)
{
    return policy.pressureTarget(resource) ||
           std::any_of(policy.metrics.begin(), policy.metrics.end(),
                       [resource](const auto& metric) { return metric.second.resource == resource; });
}

std::optional<std::string> invalidity(const Policy& policy)
{
    if (!policy.cpu && !policy.memory)
        return "a policy needs CpuTargetUtilization, MemoryTargetUtilization, Metrics or a pressure target";
    for (const auto& [name, metric] : policy.metrics)
        if (auto wrong = metricInvalidity(name, metric))
            return wrong;
    if (auto wrong = pressureInvalidity("CpuPressureTarget", policy.cpuPressureTarget))
        return wrong;
    if (auto wrong = pressureInvalidity("MemoryPressureTarget", policy.memoryPressureTarget))
        return wrong;
    if (!(policy.cpu && policy.cpu->utilizationPercent == 0 && scaledByMetrics(policy, MetricResource::Cpu)))
        if (auto wrong = targetInvalidity(policy.cpu, kCpuKeys))
            return wrong;
    if (!(policy.memory && policy.memory->utilizationPercent == 0 && scaledByMetrics(policy, MetricResource::Memory)))
        if (auto wrong = targetInvalidity(policy.memory, kMemoryKeys))
            return wrong;
    if (policy.metricMaxAge <= Micros{0})
        return std::string("MetricMaxAgeUSec must be above 0");
    if (policy.interval < kShortestInterval)
        return "IntervalUSec " + std::to_string(policy.interval.count()) + " is below " +
               std::to_string(kShortestInterval.count());
    // Written so that NaN fails too.
    if (!(policy.tolerance >= 0 && policy.tolerance < 1))
        return "Tolerance " + toleranceText(policy.tolerance) + " is outside [0, 1)";
    if (auto wrong = rulesInvalidity(policy.scaleUp, "ScaleUpPolicies", "ScaleUpSelect"))
        return wrong;
    return rulesInvalidity(policy.scaleDown, "ScaleDownPolicies", "ScaleDownSelect");
}

std::string_view conditionName(Condition condition)
{
    switch (condition) {
    case Condition::DesiredWithinRange:
        return "DesiredWithinRange";
    case Condition::ScaleUpStabilized:
        return "ScaleUpStabilized";
    case Condition::ScaleDownStabilized:
        return "ScaleDownStabilized";
    case Condition::ScaleUpLimit:
        return "ScaleUpLimit";
    case Condition::ScaleDownLimit:
        return "ScaleDownLimit";
    case Condition::AtMax:
        return "AtMax";
    case Condition::AtMin:
        return "AtMin";
    }
    return "unknown";
}

uint64_t recommendFromMetric(uint64_t current, double value, const MetricTarget& metric, double tolerance)
{
    const double ratio = metric.direction == Direction::LowerIsBetter ? value / metric.target : metric.target / value;
    if (withinTolerance(ratio, tolerance))
        return current;
    const long double wanted = std::ceil(static_cast<long double>(current) * ratio);
    return wanted >= static_cast<long double>(kUnbounded) ? kUnbounded : static_cast<uint64_t>(wanted);
}

Decision decide(uint64_t current, std::optional<uint64_t> usage, const Target& target, const Policy& policy,
                const History& history, Micros now, const std::vector<MetricReading>& metrics)
{
    const uint64_t effective = current == kUnbounded ? target.max : current;
    const bool byUtilization = target.utilizationPercent > 0;
    // Without a limit there is nothing to stabilize or rate-limit: the first
    // limit comes from what the workload uses, ceil(usage / target), as a
    // new HPA's replicas do from their pods' usage, once that is known.
    // Starting from the bound instead would hold the node's whole capacity
    // for the down-window.
    if (current == kUnbounded && byUtilization) {
        if (!usage)
            return {current, current, Condition::DesiredWithinRange};
        const uint64_t start = saturated(ceilDiv(Wide{*usage} * 100, target.utilizationPercent));
        return withinBounds({start, start, Condition::DesiredWithinRange}, target);
    }

    // A limit found outside the bounds goes straight to the nearest one,
    // with neither recommendation, stabilisation nor rates, as the HPA moves
    // a replica count (horizontal.go, reconcileAutoscaler): growing 7 to a
    // minimum of 12 at the rate would stop at 14 first.
    if (effective > target.max)
        return {target.max, target.max, Condition::AtMax};
    if (effective < floorOf(target))
        return {floorOf(target), floorOf(target), Condition::AtMin};

    std::optional<uint64_t> recommendation;
    bool missing = byUtilization && !usage;
    if (byUtilization && usage)
        recommendation = recommend(effective, *usage, target.utilizationPercent, policy.tolerance);
    for (const auto& reading : metrics) {
        if (!reading.value) {
            missing = true;
            continue;
        }
        const uint64_t wanted = recommendFromMetric(effective, *reading.value, reading.target, policy.tolerance);
        recommendation = std::max(recommendation.value_or(0), wanted);
    }
    if (!recommendation)
        return withinBounds({effective, current, Condition::DesiredWithinRange}, target);
    if (missing)
        recommendation = std::max(*recommendation, effective);

    const uint64_t stabilized = stabilize(effective, *recommendation, policy, history, now);
    const Condition why = stabilized == *recommendation ? Condition::DesiredWithinRange
                          : *recommendation >= effective ? Condition::ScaleUpStabilized
                                                         : Condition::ScaleDownStabilized;
    Decision decision{*recommendation, stabilized, why};
    // Staying put means `current` itself, so that a limit found outside the
    // bounds, "max" included, is moved into them.
    if (stabilized > effective)
        decision = limitScaleUp(decision, effective, target, policy, history, now);
    else if (stabilized < effective)
        decision = limitScaleDown(decision, effective, target, policy, history, now);
    else
        decision.value = current;
    return withinBounds(decision, target);
}

Micros longestWindow(const Policy& policy)
{
    return std::max(policy.scaleUp.stabilization, policy.scaleDown.stabilization);
}

Micros longestPeriod(const Policy& policy)
{
    Micros longest{0};
    for (const auto* rules : {&policy.scaleUp, &policy.scaleDown})
        for (const auto& rate : rules->policies)
            longest = std::max(longest, rate.period);
    return longest;
}

void remember(History& history, const Policy& policy, Recommendation recommendation)
{
    const Micros window = longestWindow(policy);
    std::erase_if(history.recommendations,
                  [&](const Recommendation& past) { return past.at <= recommendation.at - window; });
    history.recommendations.push_back(recommendation);
}

void recordScale(History& history, const Policy& policy, ScaleEvent event)
{
    const Micros longest = longestPeriod(policy);
    std::erase_if(history.events, [&](const ScaleEvent& past) { return past.at <= event.at - longest; });
    history.events.push_back(event);
}

uint64_t oomBump(uint64_t currentLimit, const Target& target)
{
    if (currentLimit == kUnbounded)
        return kUnbounded;
    const Wide bumped = std::max(Wide{currentLimit} + kOomHeadroom, ceilDiv(Wide{currentLimit} * 6, 5));
    return std::max(currentLimit, std::min(saturated(bumped), target.max));
}

}  // namespace resized::core::autoscale
