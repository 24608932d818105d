#include "core/autoscale.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <optional>
#include <ostream>
#include <utility>
#include <vector>

namespace resized::core::autoscale {
namespace {

using std::chrono::minutes;
using std::chrono::seconds;

constexpr Micros kNow = seconds(1'700'000'000);
constexpr Micros k60s = seconds(60);
constexpr Micros k120s = seconds(120);
constexpr uint64_t kMiB = 1ULL << 20;
constexpr uint64_t kGiB = 1ULL << 30;

RatePolicy percent(uint64_t value, Micros period) { return {RateKind::Percent, value, period}; }
RatePolicy absolute(uint64_t value, Micros period) { return {RateKind::Absolute, value, period}; }

// Rates that never bind, for the cases about something else.
Rules unlimitedUp(Micros window = Micros{0}) { return {window, {absolute(kUnbounded, seconds(15))}, Select::Max}; }
Rules unlimitedDown(Micros window = Micros{0}) { return {window, {percent(100, seconds(15))}, Select::Max}; }

// Tolerance 0 and a target of 100 % make the recommendation the usage
// itself, so the HPA's desired replica counts carry over unchanged.
Policy exactPolicy(Rules scaleUp = unlimitedUp(), Rules scaleDown = unlimitedDown())
{
    Policy policy;
    policy.cpu = Target{100, 1, kUnbounded};
    policy.tolerance = 0;
    policy.scaleUp = std::move(scaleUp);
    policy.scaleDown = std::move(scaleDown);
    return policy;
}

Target bounds(uint64_t min, uint64_t max) { return {100, min, max}; }
const Target kAnyLimit = bounds(1, kUnbounded);

// A change of the limit by `change` (negative: lowered) at `at`.
ScaleEvent changed(Micros at, int64_t change)
{
    constexpr uint64_t kBefore = 1000;
    return {at, kBefore, static_cast<uint64_t>(static_cast<int64_t>(kBefore) + change)};
}

// horizontal_test.go's generateEventsUniformDistribution: the changes spread
// over the last `period`, each in the middle of its share of it.
std::vector<ScaleEvent> spread(const std::vector<int64_t>& changes, Micros period)
{
    const auto count = static_cast<int64_t>(changes.size());
    std::vector<ScaleEvent> events;
    for (int64_t i = 0; i < count; ++i)
        events.push_back(changed(kNow - period * (2 * (count - i) - 1) / (2 * count), changes[i]));
    return events;
}

std::vector<ScaleEvent> joined(std::vector<ScaleEvent> first, const std::vector<ScaleEvent>& second)
{
    first.insert(first.end(), second.begin(), second.end());
    return first;
}

// horizontal_test.go's generateScalingRules, with Absolute for Pods; a
// value of 0 leaves that policy out.
Rules hpaRules(uint64_t absoluteValue, Micros absolutePeriod, uint64_t percentValue, Micros percentPeriod)
{
    Rules rules{Micros{0}, {}, Select::Max};
    if (absoluteValue != 0)
        rules.policies.push_back(absolute(absoluteValue, absolutePeriod));
    if (percentValue != 0)
        rules.policies.push_back(percent(percentValue, percentPeriod));
    return rules;
}

// The HPA's defaults for a behaviour left out (SetDefaults_HorizontalPodAutoscalerBehavior).
Rules hpaDefaultUp() { return {Micros{0}, {percent(100, seconds(15)), absolute(4, seconds(15))}, Select::Max}; }
Rules hpaDefaultDown() { return {seconds(300), {percent(100, seconds(15))}, Select::Max}; }

// What a decision comes to, compared in one EXPECT_EQ so that a failure
// names the line of the case and prints the condition by name.
struct Outcome {
    uint64_t value;
    Condition condition;
    bool operator==(const Outcome&) const = default;
};

void PrintTo(const Outcome& outcome, std::ostream* out)
{
    *out << outcome.value << " " << conditionName(outcome.condition);
}

Outcome outcomeOf(const Decision& decision) { return {decision.value, decision.condition}; }

Outcome decided(uint64_t current, std::optional<uint64_t> usage, const Target& target, const Policy& policy,
                const History& history = {})
{
    return outcomeOf(decide(current, usage, target, policy, history, kNow));
}

// TestScalingWithRules and TestCalculateScale{Up,Down}Limit* (horizontal_test.go)
// test convertDesiredReplicasWithBehaviorRate alone; with no recommendation
// history, stabilisation hands the recommendation through unchanged.
struct RateReplay {
    const char* hpaCase;
    uint64_t min;
    uint64_t max;
    std::optional<Rules> scaleUp;
    std::optional<Rules> scaleDown;
    std::vector<ScaleEvent> events;
    uint64_t current;
    uint64_t desired;
    uint64_t expected;
    Condition condition;
};

void replay(const RateReplay& test)
{
    SCOPED_TRACE(test.hpaCase);
    const Policy policy = exactPolicy(test.scaleUp.value_or(hpaDefaultUp()), test.scaleDown.value_or(hpaDefaultDown()));
    const Decision decision =
        decide(test.current, test.desired, bounds(test.min, test.max), policy, History{{}, test.events}, kNow);
    // A current count outside the bounds is moved to the bound before
    // anything is recommended (horizontal.go, reconcileAutoscaler).
    const bool outside = test.current > test.max || test.current < std::max<uint64_t>(test.min, 1);
    EXPECT_EQ(decision.recommendation, outside ? test.expected : test.desired);
    EXPECT_EQ(outcomeOf(decision), (Outcome{test.expected, test.condition}));
}

TEST(AutoscaleHpaReplay, ScalingWithRulesWithoutEvents)
{
    const std::vector<RateReplay> cases{
        {"prenormalized desired replicas within range", 3, 8, {}, {}, {}, 5, 7, 7, Condition::DesiredWithinRange},
        {"prenormalized desired replicas < minReplicas", 2, 8, {}, {}, {}, 3, 1, 2, Condition::AtMin},
        {"maxReplicas is the limit because maxReplicas < scaleUpLimit", 1, 10, {}, {}, {}, 20, 1000, 10,
         Condition::AtMax},
        {"desired replica count is more than the maximum replica count", 100, 150, {}, {}, {}, 100, 1000, 150,
         Condition::AtMax},
        {"scaleUpLimit is the limit because scaleUpLimit < maxReplicas with user policies", 1, 2000,
         hpaRules(0, {}, 1, k60s), {}, {}, 3, 1000, 4, Condition::ScaleUpLimit},
        {"scaleDownLimit is the limit because scaleDownLimit > minReplicas with user defined policies", 3, 2000, {},
         hpaRules(20, k60s, 0, {}), {}, 1000, 3, 980, Condition::ScaleDownLimit},
        {"scaleUp with default behavior", 1, 1000, {}, {}, {}, 10, 50, 20, Condition::ScaleUpLimit},
        {"scaleUp with pods policy larger than percent policy", 1, 1000, hpaRules(100, k60s, 100, k60s), {}, {}, 10,
         500, 110, Condition::ScaleUpLimit},
        {"scaleUp with percent policy larger than pods policy", 1, 1000, hpaRules(2, k60s, 100, k60s), {}, {}, 10,
         500, 20, Condition::ScaleUpLimit},
        {"scaleUp with spec MaxReplicas limitation with large pod policy", 1, 1000, hpaRules(100, k60s, 0, {}), {}, {},
         10, 50, 50, Condition::DesiredWithinRange},
        {"scaleUp with spec MaxReplicas limitation with large percent policy", 1, 1000, hpaRules(10000, k60s, 0, {}),
         {}, {}, 10, 50, 50, Condition::DesiredWithinRange},
        {"scaleUp with pod policy limitation", 1, 1000, hpaRules(30, k60s, 0, {}), {}, {}, 10, 50, 40,
         Condition::ScaleUpLimit},
        {"scaleUp with percent policy limitation", 1, 1000, hpaRules(0, {}, 200, k60s), {}, {}, 10, 50, 30,
         Condition::ScaleUpLimit},
        {"scaleDown with percent policy larger than pod policy", 1, 1000, {}, hpaRules(20, k60s, 1, k60s), {}, 100, 2,
         80, Condition::ScaleDownLimit},
        {"scaleDown with pod policy larger than percent policy", 1, 1000, {}, hpaRules(2, k60s, 1, k60s), {}, 100, 2,
         98, Condition::ScaleDownLimit},
        {"scaleDown with spec MinReplicas=nil limitation with large pod policy", 1, 1000, {},
         hpaRules(100, k60s, 0, {}), {}, 10, 0, 1, Condition::AtMin},
        {"scaleDown with spec MinReplicas limitation with large percent policy", 5, 1000, {},
         hpaRules(0, {}, 100, k60s), {}, 10, 2, 5, Condition::AtMin},
        {"scaleDown with pod policy limitation", 1, 1000, {}, hpaRules(5, k60s, 0, {}), {}, 10, 2, 5,
         Condition::ScaleDownLimit},
        {"scaleDown with percent policy limitation", 1, 1000, {}, hpaRules(0, {}, 50, k60s), {}, 10, 5, 5,
         Condition::DesiredWithinRange},
    };
    for (const auto& test : cases)
        replay(test);
}

TEST(AutoscaleHpaReplay, ScalingWithRulesWithEarlierEvents)
{
    const auto ups159 = spread({1, 5, 9}, k120s);
    const auto downs159 = spread({-1, -5, -9}, k120s);
    const auto downs10x3 = spread({-10, -10, -10}, k120s);
    const std::vector<RateReplay> cases{
        {"scaleUp with spec MaxReplicas limitation with large pod policy and events", 1, 200,
         hpaRules(300, k60s, 0, {}), {}, ups159, 100, 500, 200, Condition::AtMax},
        {"scaleUp with spec MaxReplicas limitation with large percent policy and events", 1, 200,
         hpaRules(0, {}, 10000, k60s), {}, ups159, 100, 500, 200, Condition::AtMax},
        {"scaleUp with currentReplicas limitation with rate.PeriodSeconds with a lot of recent scale up events", 1,
         1000, hpaRules(5, k120s, 0, {}), {}, ups159, 100, 500, 100, Condition::ScaleUpLimit},
        {"scaleUp with pod policy and previous scale up events", 1, 1000, hpaRules(150, k120s, 0, {}), {}, ups159, 100,
         500, 235, Condition::ScaleUpLimit},
        {"scaleUp with percent policy and previous scale up events", 1, 1000, hpaRules(0, {}, 200, k120s), {}, ups159,
         100, 500, 255, Condition::ScaleUpLimit},
        {"scaleUp with percent policy and previous scale up and down events", 1, 1000,
         hpaRules(0, {}, 300, seconds(300)), {}, joined(spread({4}, k120s), spread({-2}, k120s)), 6, 24, 16,
         Condition::ScaleUpLimit},
        {"scaleDown with default policy and previous events", 1, 1000, {}, {}, downs159, 10, 5, 5,
         Condition::DesiredWithinRange},
        {"scaleDown with spec MinReplicas=nil limitation with large pod policy and previous events", 1, 1000, {},
         hpaRules(115, k120s, 0, {}), downs159, 100, 0, 1, Condition::AtMin},
        {"scaleDown with spec MinReplicas limitation with large pod policy and previous events", 5, 1000, {},
         hpaRules(130, k120s, 0, {}), downs159, 100, 0, 5, Condition::AtMin},
        {"scaleDown with spec MinReplicas limitation with large percent policy and previous events", 5, 1000, {},
         hpaRules(0, {}, 100, k120s), downs159, 100, 2, 5, Condition::AtMin},
        {"scaleDown with pod policy limitation and previous events", 1, 1000, {}, hpaRules(5, k120s, 0, {}), downs159,
         100, 2, 100, Condition::ScaleDownLimit},
        {"scaleDown with percent policy limitation and previous events", 1, 1000, {}, hpaRules(0, {}, 50, k120s),
         spread({-2, -4, -6}, k120s), 100, 0, 56, Condition::ScaleDownLimit},
        {"scaleDown with percent policy and previous scale up and down events", 1, 1000, {},
         hpaRules(0, {}, 50, seconds(180)), joined(spread({2}, k120s), spread({-4}, k120s)), 10, 1, 6,
         Condition::ScaleDownLimit},
        {"scaleDown with previous events preventing further scale down", 1, 1000, {}, hpaRules(0, {}, 10, k120s),
         downs10x3, 100, 0, 100, Condition::ScaleDownLimit},
        {"scaleDown with with previous events still allowing more scale down", 1, 1000, {},
         hpaRules(0, {}, 1000, k120s), downs10x3, 10, 5, 5, Condition::DesiredWithinRange},
    };
    for (const auto& test : cases)
        replay(test);
}

TEST(AutoscaleHpaReplay, ScalingWithRulesOutdatedEvents)
{
    const auto ups = spread({8, 12, 9, 11}, k120s);
    const auto downs = spread({-8, -12, -9, -11}, k120s);
    const std::vector<RateReplay> cases{
        {"check 'outdated' flag for events for one behavior for up", 1, 1000, hpaRules(1000, k60s, 0, {}), {}, ups,
         100, 200, 200, Condition::DesiredWithinRange},
        {"check that events were not marked 'outdated' for two different policies in the behavior for up", 1, 1000,
         hpaRules(1000, k120s, 100, k60s), {}, ups, 100, 200, 200, Condition::DesiredWithinRange},
        {"check that events were marked 'outdated' for two different policies in the behavior for up", 1, 1000,
         hpaRules(1000, seconds(30), 100, k60s), {}, ups, 100, 200, 200, Condition::DesiredWithinRange},
        {"check 'outdated' flag for events for one behavior for down", 1, 1000, {}, hpaRules(1000, k60s, 0, {}), downs,
         100, 5, 5, Condition::DesiredWithinRange},
        {"check that events were not marked 'outdated' for two different policies in the behavior for down", 1, 1000,
         {}, hpaRules(1000, k120s, 100, k60s), downs, 100, 5, 5, Condition::DesiredWithinRange},
        {"check that events were marked 'outdated' for two different policies in the behavior for down", 1, 1000, {},
         hpaRules(1000, seconds(30), 100, k60s), downs, 100, 5, 5, Condition::DesiredWithinRange},
    };
    for (const auto& test : cases)
        replay(test);
}

TEST(AutoscaleHpaReplay, CalculateScaleLimitsWithSelectMin)
{
    Rules minChange{seconds(300), {absolute(2, k60s), percent(50, k60s)}, Select::Min};
    replay({"TestCalculateScaleUpLimitWithScalingRules", 1, kUnbounded, minChange, {}, {}, 1, 100, 2,
            Condition::ScaleUpLimit});
    replay({"TestCalculateScaleDownLimitWithBehaviors", 1, kUnbounded, {}, minChange, {}, 5, 1, 3,
            Condition::ScaleDownLimit});
}

// The one deliberate difference: a limit of 0 is no limit a cgroup can live
// with, so where the HPA may scale to zero replicas the floor is 1.
TEST(AutoscaleHpaReplay, MinimumOfZeroStillKeepsOne)
{
    replay({"prenormalized desired replicas within range when minReplicas is 0 (the HPA keeps 0)", 0, 10, {}, {}, {},
            1, 0, 1, Condition::AtMin});
}

// TestNormalizeDesiredReplicasWithBehavior: stabilizeRecommendationWithBehaviors
// alone, so the rates here never bind.
struct StabilizationReplay {
    const char* hpaCase;
    std::vector<Recommendation> past;
    uint64_t current;
    uint64_t desired;
    Micros upWindow;
    Micros downWindow;
    uint64_t expected;
    Condition condition;
};

TEST(AutoscaleHpaReplay, NormalizeDesiredReplicasWithBehavior)
{
    const auto ago = [](Micros age) { return kNow - age; };
    const std::vector<StabilizationReplay> cases{
        {"empty recommendations for scaling down", {}, 100, 5, {}, {}, 5, Condition::DesiredWithinRange},
        {"simple scale down stabilization", {{ago(minutes(2)), 4}, {ago(minutes(1)), 5}}, 100, 3, {}, minutes(3), 5,
         Condition::ScaleDownStabilized},
        {"simple scale up stabilization", {{ago(minutes(2)), 4}, {ago(minutes(1)), 5}}, 1, 7, minutes(5), {}, 4,
         Condition::ScaleUpStabilized},
        {"no scale down stabilization", {{ago(minutes(2)), 1}, {ago(minutes(1)), 2}}, 100, 3, minutes(5), {}, 3,
         Condition::DesiredWithinRange},
        {"no scale up stabilization", {{ago(minutes(2)), 4}, {ago(minutes(1)), 5}}, 1, 3, {}, minutes(5), 3,
         Condition::DesiredWithinRange},
        {"no scale down stabilization, reuse recommendation element", {{ago(minutes(10)), 10}, {ago(minutes(9)), 9}},
         100, 3, {}, {}, 3, Condition::DesiredWithinRange},
        {"no scale up stabilization, reuse recommendation element", {{ago(minutes(10)), 10}, {ago(minutes(9)), 9}}, 1,
         100, {}, {}, 100, Condition::DesiredWithinRange},
        {"scale down stabilization, reuse one of obsolete recommendation element",
         {{ago(minutes(10)), 10}, {ago(minutes(1)), 4}, {ago(minutes(2)), 5}, {ago(minutes(9)), 9}}, 100, 3, {},
         minutes(3), 5, Condition::ScaleDownStabilized},
        {"scale up stabilization, reuse one of obsolete recommendation element",
         {{ago(minutes(100)), 10}, {ago(minutes(1)), 6}, {ago(minutes(2)), 5}, {ago(minutes(3)), 9}}, 1, 100,
         seconds(300), {}, 5, Condition::ScaleUpStabilized},
        {"scale up and down stabilization, do not scale up when prenormalized rec goes down",
         {{ago(minutes(100)), 2}, {ago(minutes(3)), 3}}, 2, 1, seconds(300), seconds(300), 2,
         Condition::ScaleDownStabilized},
        {"scale up and down stabilization, do not scale down when prenormalized rec goes up",
         {{ago(minutes(100)), 2}, {ago(minutes(3)), 1}}, 2, 3, seconds(300), seconds(300), 2,
         Condition::ScaleUpStabilized},
    };
    for (const auto& test : cases) {
        SCOPED_TRACE(test.hpaCase);
        const Policy policy = exactPolicy(unlimitedUp(test.upWindow), unlimitedDown(test.downWindow));
        const Decision decision =
            decide(test.current, test.desired, kAnyLimit, policy, History{test.past, {}}, kNow);
        EXPECT_EQ(decision.recommendation, test.desired);
        EXPECT_EQ(outcomeOf(decision), (Outcome{test.expected, test.condition}));
    }
}

TEST(AutoscaleStabilization, WindowEndsJustAfterItsLength)
{
    const Policy policy = exactPolicy(unlimitedUp(minutes(1)), unlimitedDown(minutes(3)));
    const History justOutside{{{kNow - minutes(3), 900}, {kNow - minutes(1), 100}}, {}};
    EXPECT_EQ(decided(500, 200, kAnyLimit, policy, justOutside), (Outcome{200, Condition::DesiredWithinRange}));
    EXPECT_EQ(decided(500, 800, kAnyLimit, policy, justOutside), (Outcome{800, Condition::DesiredWithinRange}));

    const History justInside{{{kNow - minutes(3) + Micros{1}, 900}, {kNow - minutes(1) + Micros{1}, 100}}, {}};
    EXPECT_EQ(decided(500, 200, kAnyLimit, policy, justInside), (Outcome{500, Condition::ScaleDownStabilized}));
    EXPECT_EQ(decided(500, 800, kAnyLimit, policy, justInside), (Outcome{500, Condition::ScaleUpStabilized}));
}

TEST(AutoscaleStabilization, StabilizedValueIsStillRateLimited)
{
    const Policy policy = exactPolicy({minutes(5), {absolute(100, k60s)}, Select::Max});
    const History past{{{kNow - minutes(2), 900}}, {}};
    // Stabilised down to 900, the lowest of the up-window; 500 → 900 is still more than +100.
    EXPECT_EQ(decided(500, 2000, kAnyLimit, policy, past), (Outcome{600, Condition::ScaleUpLimit}));
}

TEST(AutoscaleRecommendation, RoundsUpToTheTargetUtilization)
{
    Policy policy = exactPolicy();
    const Decision decision = decide(1000, 1001, Target{80, 1, kUnbounded}, policy, {}, kNow);
    EXPECT_EQ(decision.recommendation, 1252u);  // ceil(1001 × 100 / 80) = ceil(1251.25)
    EXPECT_EQ(decision.value, 1252u);
}

TEST(AutoscaleRecommendation, ToleranceKeepsTheCurrentLimitInclusively)
{
    Policy policy = exactPolicy();
    policy.tolerance = 0.1;
    const Target half{50, 1, kUnbounded};  // usage 500 is on target for a limit of 1000
    EXPECT_EQ(decide(1000, 550, half, policy, {}, kNow).recommendation, 1000u);
    EXPECT_EQ(decide(1000, 450, half, policy, {}, kNow).recommendation, 1000u);
    // 551 is a utilization of 55 %, truncated as the HPA does: still within.
    EXPECT_EQ(decide(1000, 559, half, policy, {}, kNow).recommendation, 1000u);
    EXPECT_EQ(decide(1000, 561, half, policy, {}, kNow).recommendation, 1122u);
    EXPECT_EQ(decide(1000, 449, half, policy, {}, kNow).recommendation, 898u);
    EXPECT_EQ(decided(1000, 550, half, policy), (Outcome{1000, Condition::DesiredWithinRange}));
}

// replica_calculator.go: utilization = int32(usage × 100 / request), ratio
// = float64(utilization) / float64(target), kept while 1 − tolerance ≤
// ratio ≤ 1 + tolerance, all in doubles. At a boundary the rounding of the
// doubles decides, so each side of each boundary is pinned here.
TEST(AutoscaleRecommendation, ToleranceDecidesAtBoundariesAsTheHpa)
{
    Policy policy = exactPolicy();
    policy.tolerance = 0.03;
    const Target full{100, 1, kUnbounded};
    // The case: 97 % of the target with a tolerance of 0.03 is kept.
    EXPECT_EQ(decide(1000, 970, full, policy, {}, kNow).recommendation, 1000u);
    EXPECT_EQ(decide(1000, 969, full, policy, {}, kNow).recommendation, 969u);
    EXPECT_EQ(decide(1000, 1039, full, policy, {}, kNow).recommendation, 1000u);
    EXPECT_EQ(decide(1000, 1040, full, policy, {}, kNow).recommendation, 1040u);
    // Exactly 1 + tolerance in doubles: 1.0 + 0.1 is above 1.1, so 110 % of
    // the target is kept, and 90 % as well.
    policy.tolerance = 0.1;
    EXPECT_EQ(decide(1000, 1100, full, policy, {}, kNow).recommendation, 1000u);
    EXPECT_EQ(decide(1000, 900, full, policy, {}, kNow).recommendation, 1000u);
    EXPECT_EQ(decide(1000, 899, full, policy, {}, kNow).recommendation, 899u);
    // A limit of 0 has no utilization; it lies below every minimum.
    EXPECT_EQ(decided(0, 5, full, policy), (Outcome{1, Condition::AtMin}));
}

TEST(AutoscaleRecommendation, ExactForLargeByteCountsAndSaturating)
{
    Policy policy = exactPolicy();
    const uint64_t huge = (1ULL << 52) + 3;
    // ceil((2^52 + 3) × 100 / 80) = 5 × 2^50 + ceil(3.75)
    EXPECT_EQ(decide(kGiB, huge, Target{80, 1, kUnbounded}, policy, {}, kNow).recommendation, 5 * (1ULL << 50) + 4);
    const Decision saturated = decide(kGiB, kUnbounded - 1, Target{50, 1, kUnbounded}, policy, {}, kNow);
    EXPECT_EQ(saturated.recommendation, kUnbounded);
    EXPECT_EQ(saturated.value, kUnbounded);
}

TEST(AutoscaleRate, PeriodStartUndoesIncreasesAndDecreasesInsideThePeriod)
{
    const Policy policy = exactPolicy({Micros{0}, {percent(50, k60s)}, Select::Max});
    const Target target = kAnyLimit;
    // Lowered 1000 → 600 thirty seconds ago: the period started at 1000,
    // so 50 % allows 1500, not 900.
    const History lowered{{}, {{kNow - seconds(30), 1000, 600}}};
    EXPECT_EQ(decided(600, 5000, target, policy, lowered), (Outcome{1500, Condition::ScaleUpLimit}));
    // Raised 400 → 600 inside the period: 50 % of 400 is used up already.
    const History raised{{}, {{kNow - seconds(30), 400, 600}}};
    EXPECT_EQ(decided(600, 5000, target, policy, raised), (Outcome{600, Condition::ScaleUpLimit}));
    // The same change exactly one period ago no longer counts.
    const History expired{{}, {{kNow - k60s, 400, 600}}};
    EXPECT_EQ(decided(600, 5000, target, policy, expired), (Outcome{900, Condition::ScaleUpLimit}));
}

TEST(AutoscaleRate, ScaleDownPeriodStartCountsAnEarlierIncrease)
{
    const Policy policy = exactPolicy(unlimitedUp(), {Micros{0}, {percent(10, k60s)}, Select::Max});
    // Raised 1000 → 1200 inside the period: 10 % down from 1000 is 900.
    const History raised{{}, {{kNow - seconds(10), 1000, 1200}}};
    EXPECT_EQ(decided(1200, 100, kAnyLimit, policy, raised), (Outcome{900, Condition::ScaleDownLimit}));
}

// The HPA's periodStartReplicas is signed: after the autoscaler raised the
// limit 100 → 1000 inside the period and someone set it to 50 outside
// resized, the period "started" at 50 − 900 = −850, and growth is measured
// from there. Clamped at 0, an absolute rate of 1000 would allow 1000.
TEST(AutoscaleRate, PeriodStartBelowZeroAllowsNoMoreGrowthThanTheHpa)
{
    const History raised{{}, {{kNow - seconds(30), 100, 1000}}};
    const Policy absoluteRate = exactPolicy({Micros{0}, {absolute(1000, k60s)}, Select::Max});
    EXPECT_EQ(decided(50, 5000, kAnyLimit, absoluteRate, raised), (Outcome{150, Condition::ScaleUpLimit}));
    // A percentage of a negative start is negative: no growth at all.
    const Policy percentRate = exactPolicy({Micros{0}, {percent(100, k60s)}, Select::Max});
    EXPECT_EQ(decided(50, 5000, kAnyLimit, percentRate, raised), (Outcome{50, Condition::ScaleUpLimit}));
    // Shrinking from a negative start, the rate allows anything.
    const Policy downRate = exactPolicy(unlimitedUp(), {Micros{0}, {percent(10, k60s)}, Select::Max});
    EXPECT_EQ(decided(50, 10, kAnyLimit, downRate, raised), (Outcome{10, Condition::DesiredWithinRange}));
}

TEST(AutoscaleRate, SelectPolicyInBothDirections)
{
    const std::vector<RatePolicy> rates{absolute(50, k60s), percent(10, k60s)};
    const Target target = kAnyLimit;
    const auto up = [&](Select select) {
        return decide(1000, 5000, target, exactPolicy({Micros{0}, rates, select}), {}, kNow);
    };
    const auto down = [&](Select select) {
        return decide(1000, 10, target, exactPolicy(unlimitedUp(), {Micros{0}, rates, select}), {}, kNow);
    };
    EXPECT_EQ(outcomeOf(up(Select::Max)), (Outcome{1100, Condition::ScaleUpLimit}));
    EXPECT_EQ(outcomeOf(up(Select::Min)), (Outcome{1050, Condition::ScaleUpLimit}));
    EXPECT_EQ(outcomeOf(up(Select::Disabled)), (Outcome{1000, Condition::ScaleUpLimit}));
    EXPECT_EQ(outcomeOf(down(Select::Max)), (Outcome{900, Condition::ScaleDownLimit}));
    EXPECT_EQ(outcomeOf(down(Select::Min)), (Outcome{950, Condition::ScaleDownLimit}));
    EXPECT_EQ(outcomeOf(down(Select::Disabled)), (Outcome{1000, Condition::ScaleDownLimit}));
}

TEST(AutoscaleRate, PercentRoundsUpGrowingAndDownShrinking)
{
    const Target target = kAnyLimit;
    const Rules onePercent{Micros{0}, {percent(1, k60s)}, Select::Max};
    EXPECT_EQ(decided(150, 1000, target, exactPolicy(onePercent)), (Outcome{152, Condition::ScaleUpLimit}));
    EXPECT_EQ(decided(150, 1, target, exactPolicy(unlimitedUp(), onePercent)),
              (Outcome{148, Condition::ScaleDownLimit}));
}

TEST(AutoscaleBounds, MaxAndMinWinOverTheRates)
{
    const Policy policy = exactPolicy({Micros{0}, {absolute(10, k60s)}, Select::Max},
                                      {Micros{0}, {absolute(100, k60s)}, Select::Max});
    const Target target = bounds(100, 1000);
    // Already above the maximum: shrinking by the rate (1900) is not enough.
    EXPECT_EQ(decided(2000, 1500, target, policy), (Outcome{1000, Condition::AtMax}));
    // Below the minimum: growing by the rate (60) is not enough.
    EXPECT_EQ(decided(50, 500, target, policy), (Outcome{100, Condition::AtMin}));
    // Recommendation equal to the current limit, which lies outside.
    EXPECT_EQ(decided(2000, 2000, target, policy), (Outcome{1000, Condition::AtMax}));
    EXPECT_EQ(decided(50, 50, target, policy), (Outcome{100, Condition::AtMin}));
}

// horizontal.go, reconcileAutoscaler: a count outside the bounds becomes
// the bound, without a recommendation, stabilization or rates.
TEST(AutoscaleBounds, OutsideTheBoundsGoesStraightToTheBound)
{
    // Growth at the rate alone (+100 % of 7) would stop at 14.
    const Policy policy = exactPolicy({Micros{0}, {percent(100, k60s)}, Select::Max});
    EXPECT_EQ(decided(7, 18, bounds(12, 100), policy), (Outcome{12, Condition::AtMin}));
    EXPECT_EQ(decided(7, 2, bounds(12, 100), policy), (Outcome{12, Condition::AtMin}));
    // A scale-up window would hold 150 at the lowest recent recommendation.
    Policy held = exactPolicy({minutes(5), {percent(100, k60s)}, Select::Max});
    const History past{{{kNow - minutes(1), 10}}, {}};
    EXPECT_EQ(decided(150, 500, bounds(1, 100), held, past), (Outcome{100, Condition::AtMax}));
    EXPECT_EQ(decide(150, 500, bounds(1, 100), held, past, kNow).recommendation, 100u);
}

TEST(AutoscaleBounds, WithoutALimitTheFirstOneComesFromTheUsage)
{
    Policy policy = exactPolicy(unlimitedUp(), {Micros{0}, {percent(10, k60s)}, Select::Max});
    // A stabilization window or a rate measured from "max" would keep (or
    // barely lower) the bound: neither applies to a first limit.
    policy.scaleDown.stabilization = k60s;
    const Target target{80, 1, 4 * kGiB};
    const Decision first = decide(kUnbounded, kGiB, target, policy, {}, kNow);
    EXPECT_EQ(first.recommendation, 1342177280u);  // ceil(1 GiB / 0.8)
    EXPECT_EQ(outcomeOf(first), (Outcome{1342177280, Condition::DesiredWithinRange}));
    // Still inside the bounds: usage beyond the maximum is written as it.
    EXPECT_EQ(decided(kUnbounded, 4 * kGiB, target, policy), (Outcome{4 * kGiB, Condition::AtMax}));
    EXPECT_EQ(decided(kUnbounded, 0, bounds(25, 1000), policy), (Outcome{25, Condition::AtMin}));
}

TEST(AutoscaleBounds, FromUnboundedWithoutMaximumAnyDecreaseIsAllowed)
{
    const Policy policy = exactPolicy(unlimitedUp(), {Micros{0}, {percent(10, k60s)}, Select::Max});
    const Decision decision = decide(kUnbounded, kGiB, kAnyLimit, policy, {}, kNow);
    EXPECT_EQ(outcomeOf(decision), (Outcome{kGiB, Condition::DesiredWithinRange}));
}

TEST(AutoscaleMissingUsage, KeepsTheLimitOrMovesItIntoTheBounds)
{
    const Policy policy = exactPolicy();
    const Target target = bounds(100, 1000);
    const Decision kept = decide(500, std::nullopt, target, policy, {}, kNow);
    EXPECT_EQ(kept.recommendation, 500u);
    EXPECT_EQ(outcomeOf(kept), (Outcome{500, Condition::DesiredWithinRange}));
    EXPECT_EQ(decided(2000, std::nullopt, target, policy), (Outcome{1000, Condition::AtMax}));
    EXPECT_EQ(decided(50, std::nullopt, target, policy), (Outcome{100, Condition::AtMin}));
    // No limit is not a limit above the bounds: the first waits for the
    // usage it comes from.
    EXPECT_EQ(decided(kUnbounded, std::nullopt, target, policy),
              (Outcome{kUnbounded, Condition::DesiredWithinRange}));
    EXPECT_EQ(decided(kUnbounded, std::nullopt, bounds(0, kUnbounded), policy),
              (Outcome{kUnbounded, Condition::DesiredWithinRange}));
    EXPECT_EQ(decided(0, std::nullopt, bounds(0, kUnbounded), policy), (Outcome{1, Condition::AtMin}));
}

TEST(AutoscaleMissingUsage, IgnoresTheHistory)
{
    const Policy policy = exactPolicy(unlimitedUp(), unlimitedDown(minutes(5)));
    const History past{{{kNow - minutes(1), 5000}}, {}};
    EXPECT_EQ(decided(500, std::nullopt, kAnyLimit, policy, past), (Outcome{500, Condition::DesiredWithinRange}));
}

TEST(AutoscaleOomBump, AddsAtLeastOneHundredMiBOrTwentyPercent)
{
    const Target unbounded = kAnyLimit;
    EXPECT_EQ(oomBump(200 * kMiB, unbounded), 300 * kMiB);
    EXPECT_EQ(oomBump(kGiB, unbounded), 1288490189u);  // ceil(1 GiB × 1.2)
    EXPECT_EQ(oomBump(500 * kMiB, unbounded), 600 * kMiB);  // both the same
}

TEST(AutoscaleOomBump, CappedAtMaxButNeverLowered)
{
    EXPECT_EQ(oomBump(kGiB, bounds(1, kGiB + 10 * kMiB)), kGiB + 10 * kMiB);
    EXPECT_EQ(oomBump(2 * kGiB, bounds(1, kGiB)), 2 * kGiB);
    EXPECT_EQ(oomBump(kUnbounded, bounds(1, kGiB)), kUnbounded);
    EXPECT_EQ(oomBump(kUnbounded - 1, kAnyLimit), kUnbounded);
}

TEST(AutoscaleHistory, RememberDropsWhatNeitherWindowCanSee)
{
    const Policy policy = exactPolicy(unlimitedUp(minutes(1)), unlimitedDown(minutes(5)));
    History history{{{kNow - minutes(7), 1}, {kNow - minutes(5), 2}, {kNow - minutes(5) + Micros{1}, 3},
                     {kNow - seconds(10), 4}},
                    {}};
    remember(history, policy, {kNow, 5});
    EXPECT_EQ(history.recommendations,
              (std::vector<Recommendation>{{kNow - minutes(5) + Micros{1}, 3}, {kNow - seconds(10), 4}, {kNow, 5}}));
}

TEST(AutoscaleHistory, RememberKeepsTheNewestEvenWithoutWindows)
{
    const Policy policy = exactPolicy(unlimitedUp(), unlimitedDown());
    History history{{{kNow - seconds(1), 7}}, {}};
    remember(history, policy, {kNow, 8});
    EXPECT_EQ(history.recommendations, (std::vector<Recommendation>{{kNow, 8}}));
}

TEST(AutoscaleHistory, RecordScaleKeepsTheLongestPeriodOfEitherDirection)
{
    const Policy policy = exactPolicy({Micros{0}, {percent(100, seconds(15)), absolute(10, k60s)}, Select::Max},
                                      {Micros{0}, {percent(10, k120s)}, Select::Max});
    History history{{}, {{kNow - seconds(200), 1, 2}, {kNow - k120s, 2, 3}, {kNow - seconds(119), 3, 4}}};
    recordScale(history, policy, {kNow, 4, 5});
    EXPECT_EQ(history.events, (std::vector<ScaleEvent>{{kNow - seconds(119), 3, 4}, {kNow, 4, 5}}));
}

Policy soundPolicy()
{
    Policy policy;
    policy.cpu = Target{80, 100, 2000};
    return policy;
}

TEST(AutoscaleInvalidity, SoundPolicyPasses)
{
    EXPECT_EQ(invalidity(soundPolicy()), std::nullopt);
    Policy memoryOnly;
    memoryOnly.memory = Target{90, 0, kUnbounded};
    EXPECT_EQ(invalidity(memoryOnly), std::nullopt);
    Policy disabledDown = soundPolicy();
    disabledDown.scaleDown = {Micros{0}, {}, Select::Disabled};
    EXPECT_EQ(invalidity(disabledDown), std::nullopt);
}

TEST(AutoscaleInvalidity, NamesTheKeyAtFault)
{
    const auto invalid = [](auto change) {
        Policy policy = soundPolicy();
        change(policy);
        return invalidity(policy).value_or("(sound)");
    };
    EXPECT_EQ(invalid([](Policy& p) { p.cpu.reset(); }),
              "a policy needs CpuTargetUtilization, MemoryTargetUtilization, Metrics or a pressure target");
    EXPECT_EQ(invalid([](Policy& p) { p.cpu->utilizationPercent = 0; }), "CpuTargetUtilization must be above 0");
    EXPECT_EQ(invalid([](Policy& p) { p.cpu = Target{80, 800, 500}; }), "CpuMinMillis 800 is above CpuMaxMillis 500");
    EXPECT_EQ(invalid([](Policy& p) { p.cpu->max = 0; p.cpu->min = 0; }), "CpuMaxMillis must be above 0");
    EXPECT_EQ(invalid([](Policy& p) { p.memory = Target{0, 0, kUnbounded}; }),
              "MemoryTargetUtilization must be above 0");
    EXPECT_EQ(invalid([](Policy& p) { p.memory = Target{90, 2 * kGiB, kGiB}; }),
              "MemoryMinBytes 2147483648 is above MemoryMaxBytes 1073741824");
    EXPECT_EQ(invalid([](Policy& p) { p.interval = Micros{9'999}; }), "IntervalUSec 9999 is below 10000");
    EXPECT_EQ(invalid([](Policy& p) { p.tolerance = 1; }), "Tolerance 1 is outside [0, 1)");
    EXPECT_EQ(invalid([](Policy& p) { p.tolerance = -0.5; }), "Tolerance -0.5 is outside [0, 1)");
    EXPECT_EQ(invalid([](Policy& p) { p.tolerance = std::numeric_limits<double>::quiet_NaN(); }),
              "Tolerance nan is outside [0, 1)");
    EXPECT_EQ(invalid([](Policy& p) { p.scaleUp.policies.push_back(absolute(0, k60s)); }),
              "ScaleUpPolicies has a policy with value 0; every value must be above 0");
    EXPECT_EQ(invalid([](Policy& p) { p.scaleDown.policies.push_back(percent(10, Micros{0})); }),
              "ScaleDownPolicies has a policy with period 0; every period must be above 0");
    EXPECT_EQ(invalid([](Policy& p) { p.scaleDown.policies.clear(); }),
              "ScaleDownPolicies is empty; it needs a policy unless ScaleDownSelect is Disabled");
}

TEST(AutoscaleInvalidity, APressureTargetIsAPercentAboveZero)
{
    const auto invalid = [](std::optional<double> cpu, std::optional<double> memory) {
        Policy policy = soundPolicy();
        policy.cpuPressureTarget = cpu;
        policy.memoryPressureTarget = memory;
        return invalidity(policy).value_or("(sound)");
    };
    EXPECT_EQ(invalid(0.5, 100), "(sound)");
    EXPECT_EQ(invalid(0, std::nullopt), "CpuPressureTarget must be a percent above 0 and at most 100");
    EXPECT_EQ(invalid(std::nullopt, 100.5), "MemoryPressureTarget must be a percent above 0 and at most 100");
    EXPECT_EQ(invalid(std::numeric_limits<double>::quiet_NaN(), std::nullopt),
              "CpuPressureTarget must be a percent above 0 and at most 100");
}

// The stalls are a LowerIsBetter metric of their resource: alone they
// scale it, by their ratio to the target.
TEST(AutoscaleMetrics, APressureTargetScalesItsResourceAsAMetric)
{
    Policy policy = exactPolicy();
    policy.cpu = Target{0, 100, 2000};
    policy.cpuPressureTarget = 10;
    EXPECT_EQ(invalidity(policy), std::nullopt);
    EXPECT_TRUE(scaledByMetrics(policy, MetricResource::Cpu));
    EXPECT_FALSE(scaledByMetrics(policy, MetricResource::Memory));
    const MetricTarget stalls{.target = 10, .direction = Direction::LowerIsBetter};
    // Stalled 40 % of the time at 200m: four times the target.
    EXPECT_EQ(outcomeOf(decide(200, 200, *policy.cpu, policy, {}, kNow, {{stalls, 40.0}})),
              (Outcome{800, Condition::DesiredWithinRange}));
}

TEST(AutoscaleInvalidity, IntervalOfTenMillisecondsIsTheShortest)
{
    Policy policy = soundPolicy();
    policy.interval = Micros{10'000};
    EXPECT_EQ(invalidity(policy), std::nullopt);
}

TEST(AutoscaleCondition, NamesAsSpelled)
{
    EXPECT_EQ(conditionName(Condition::DesiredWithinRange), "DesiredWithinRange");
    EXPECT_EQ(conditionName(Condition::ScaleUpStabilized), "ScaleUpStabilized");
    EXPECT_EQ(conditionName(Condition::ScaleDownStabilized), "ScaleDownStabilized");
    EXPECT_EQ(conditionName(Condition::ScaleUpLimit), "ScaleUpLimit");
    EXPECT_EQ(conditionName(Condition::ScaleDownLimit), "ScaleDownLimit");
    EXPECT_EQ(conditionName(Condition::AtMax), "AtMax");
    EXPECT_EQ(conditionName(Condition::AtMin), "AtMin");
}

// design.md §1c, "Autoscaling on what the application feels": a metric
// recommends the current limit times its ratio to the target.
TEST(AutoscaleMetrics, EachDirectionScalesByTheRatioToTheTarget)
{
    const MetricTarget latency{.target = 100, .direction = Direction::LowerIsBetter};
    const MetricTarget fps{.target = 60, .direction = Direction::HigherIsBetter};
    EXPECT_EQ(recommendFromMetric(400, 150, latency, 0.1), 600u);  // ceil(400 × 150 / 100)
    EXPECT_EQ(recommendFromMetric(400, 50, latency, 0.1), 200u);
    EXPECT_EQ(recommendFromMetric(400, 30, fps, 0.1), 800u);  // ceil(400 × 60 / 30)
    EXPECT_EQ(recommendFromMetric(400, 90, fps, 0.1), 267u);  // ceil(400 × 60 / 90)
    // Within the tolerance, the limit stays.
    EXPECT_EQ(recommendFromMetric(400, 105, latency, 0.1), 400u);
    // No frame at all: as much as may be.
    EXPECT_EQ(recommendFromMetric(400, 0, fps, 0.1), kUnbounded);
}

TEST(AutoscaleMetrics, TheLargestRecommendationWinsAndAMissingOneNeverLowers)
{
    const Policy policy = exactPolicy();
    const Target target{50, 1, kUnbounded};
    const MetricTarget latency{.target = 100};
    const MetricTarget fps{.target = 60, .direction = Direction::HigherIsBetter};
    // Utilization asks 400 (usage 200 at 50 %), latency 750, fps 500.
    EXPECT_EQ(outcomeOf(decide(500, 200, target, policy, {}, kNow, {{latency, 150.0}, {fps, 60.0}})),
              (Outcome{750, Condition::DesiredWithinRange}));
    // Everything known asks less: the limit falls to the largest, 400.
    EXPECT_EQ(outcomeOf(decide(500, 200, target, policy, {}, kNow, {{latency, 50.0}})),
              (Outcome{400, Condition::DesiredWithinRange}));
    // The same with the latency unknown: nothing falls.
    EXPECT_EQ(outcomeOf(decide(500, 200, target, policy, {}, kNow, {{latency, std::nullopt}})),
              (Outcome{500, Condition::DesiredWithinRange}));
    // A missing metric does not hold back a raise.
    EXPECT_EQ(outcomeOf(decide(500, 400, target, policy, {}, kNow, {{latency, std::nullopt}})),
              (Outcome{800, Condition::DesiredWithinRange}));
}

TEST(AutoscaleMetrics, MetricsAloneScaleAResourceWithoutAUtilizationTarget)
{
    const Policy policy = exactPolicy();
    const Target byMetricsOnly{0, 100, 2000};
    const MetricTarget latency{.target = 100};
    // The usage counts for nothing without a utilization target.
    EXPECT_EQ(outcomeOf(decide(500, 5, byMetricsOnly, policy, {}, kNow, {{latency, 300.0}})),
              (Outcome{1500, Condition::DesiredWithinRange}));
    EXPECT_EQ(outcomeOf(decide(500, 5, byMetricsOnly, policy, {}, kNow, {{latency, std::nullopt}})),
              (Outcome{500, Condition::DesiredWithinRange}));

    Policy withMetrics = policy;
    withMetrics.cpu = byMetricsOnly;
    withMetrics.metrics = {{"latency_ms", latency}};
    EXPECT_EQ(invalidity(withMetrics), std::nullopt);
    withMetrics.metrics.at("latency_ms").target = 0;
    EXPECT_EQ(invalidity(withMetrics), "the Target of metric \"latency_ms\" must be a number above 0");
    withMetrics.metrics.clear();
    EXPECT_NE(invalidity(withMetrics), std::nullopt) << "a utilization of 0 with no metric to scale on";
}

}  // namespace
}  // namespace resized::core::autoscale
