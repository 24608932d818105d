// `autoscale set`'s options as core::autoscale::Policy, and `autoscale
// status`'s block, without a bus.

#include <algorithm>
#include <cstdlib>
#include <ctime>

#include <gtest/gtest.h>

#include "autoscale_options.h"
#include "autoscale_status.h"

namespace resized::ctl {
namespace {

using namespace std::chrono_literals;
namespace autoscale = core::autoscale;

constexpr uint64_t kMi = 1ull << 20;
constexpr uint64_t kGi = 1ull << 30;

// The policy `resizectl autoscale set WORKLOAD ARGUMENTS` sends.
autoscale::Policy policyOf(std::vector<std::string> arguments)
{
    CLI::App command;
    AutoscaleArguments parsed;
    addAutoscaleOptions(command, parsed);
    // CLI11 takes a vector of arguments last one first.
    std::reverse(arguments.begin(), arguments.end());
    command.parse(arguments);
    return parsed.policy();
}

TEST(AutoscaleOptions, ATargetAloneKeepsEveryDefault)
{
    autoscale::Policy expected;
    expected.cpu = autoscale::Target{70, 0, autoscale::kUnbounded};

    EXPECT_EQ(policyOf({"--cpu-target", "70"}), expected);
    EXPECT_EQ(policyOf({"--cpu-target", "70%"}), expected);
}

TEST(AutoscaleOptions, BoundsAreQuantitiesAsSetReadsThem)
{
    const auto policy = policyOf({"--cpu-target", "70", "--cpu-min", "500m", "--cpu-max", "1.5", "--memory-target",
                                  "80", "--memory-min", "512M", "--memory-max", "1G"});

    EXPECT_EQ(policy.cpu, (autoscale::Target{70, 500, 1500}));
    EXPECT_EQ(policy.memory, (autoscale::Target{80, 512 * kMi, kGi}));
    EXPECT_EQ(policyOf({"--memory-target", "80", "--memory-max", "max"}).memory,
              (autoscale::Target{80, 0, autoscale::kUnbounded}));
    EXPECT_EQ(policyOf({"--cpu-target", "50", "--cpu-max", "4000m"}).cpu, (autoscale::Target{50, 0, 4000}));
}

TEST(AutoscaleOptions, EveryBehaviourOptionLandsInThePolicy)
{
    const auto policy = policyOf({"--memory-target", "75", "--interval", "500ms", "--tolerance", "0.05",
                                  "--scale-up-window", "30s", "--scale-down-window", "10min", "--scale-up-policy",
                                  "percent:50:1min", "--scale-up-policy", "absolute:268435456:30s",
                                  "--scale-up-select", "min", "--scale-down-policy", "percent:10%:5min",
                                  "--scale-down-select", "disabled", "--mode", "recommend"});

    EXPECT_FALSE(policy.cpu);
    EXPECT_EQ(policy.memory, (autoscale::Target{75, 0, autoscale::kUnbounded}));
    EXPECT_EQ(policy.interval, 500ms);
    EXPECT_DOUBLE_EQ(policy.tolerance, 0.05);
    EXPECT_EQ(policy.scaleUp, (autoscale::Rules{30s,
                                                {{autoscale::RateKind::Percent, 50, 1min},
                                                 {autoscale::RateKind::Absolute, 256 * kMi, 30s}},
                                                autoscale::Select::Min}));
    EXPECT_EQ(policy.scaleDown,
              (autoscale::Rules{10min, {{autoscale::RateKind::Percent, 10, 5min}}, autoscale::Select::Disabled}));
    EXPECT_EQ(policy.mode, autoscale::Mode::Recommend);
}

// Given rate policies replace the defaults of their direction only.
TEST(AutoscaleOptions, RatePoliciesReplaceTheirDirectionsDefaults)
{
    const auto policy = policyOf({"--cpu-target", "70", "--scale-down-policy", "absolute:100:15s"});

    EXPECT_EQ(policy.scaleUp, autoscale::Policy{}.scaleUp);
    EXPECT_EQ(policy.scaleDown.policies,
              (std::vector<autoscale::RatePolicy>{{autoscale::RateKind::Absolute, 100, 15s}}));
    EXPECT_EQ(policy.scaleDown.stabilization, autoscale::Policy{}.scaleDown.stabilization);
}

// A bound may change the policy in force alone; only a resource without a
// target there or on the command line has nothing to bound.
TEST(AutoscaleOptions, ABoundWithoutItsTargetIsNamed)
{
    const auto boundWithoutTarget = [](std::vector<std::string> arguments) {
        CLI::App command;
        AutoscaleArguments parsed;
        addAutoscaleOptions(command, parsed);
        std::reverse(arguments.begin(), arguments.end());
        command.parse(arguments);
        return parsed.boundWithoutTarget();
    };
    EXPECT_EQ(boundWithoutTarget({"--cpu-min", "1"}), "--cpu-min needs a CPU target: give --cpu-target");
    EXPECT_EQ(boundWithoutTarget({"--memory-target", "80", "--cpu-max", "2"}),
              "--cpu-max needs a CPU target: give --cpu-target");
    EXPECT_EQ(boundWithoutTarget({"--cpu-target", "70", "--memory-max", "1g"}),
              "--memory-max needs a memory target: give --memory-target");
    EXPECT_EQ(boundWithoutTarget({"--cpu-target", "70", "--cpu-max", "2"}), std::nullopt);
}

TEST(AutoscaleOptions, UnreadableValuesAreUsageErrors)
{
    for (const auto& arguments : std::vector<std::vector<std::string>>{
             {"--cpu-target", "seventy"},
             {"--cpu-target", "-5"},
             {"--cpu-target", "70", "--cpu-max", "lots"},
             {"--memory-target", "80", "--memory-min", "1x"},
             {"--cpu-target", "70", "--interval", "soon"},
             {"--cpu-target", "70", "--tolerance", "a bit"},
             {"--cpu-target", "70", "--scale-up-policy", "percent:100"},
             {"--cpu-target", "70", "--scale-down-select", "most"},
             {"--cpu-target", "70", "--mode", "manual"},
         }) {
        EXPECT_THROW(policyOf(arguments), CLI::ValidationError) << arguments[arguments.size() - 2];
    }
}

// What the daemon would refuse is the verb's to report as an invalid
// argument; the options themselves take it.
TEST(AutoscaleOptions, UnsoundPoliciesAreLeftToInvalidity)
{
    EXPECT_TRUE(autoscale::invalidity(policyOf({"--cpu-target", "0"})));
    EXPECT_TRUE(autoscale::invalidity(policyOf({"--cpu-target", "70", "--cpu-min", "2", "--cpu-max", "1"})));
    EXPECT_TRUE(autoscale::invalidity(policyOf({"--interval", "1s"})));
    EXPECT_FALSE(autoscale::invalidity(policyOf({"--cpu-target", "70", "--cpu-min", "1", "--cpu-max", "2"})));
}

TEST(RatePolicyArgument, IsKindValuePeriod)
{
    using autoscale::RateKind;
    EXPECT_EQ(parseRatePolicyArgument("percent:100:15s"), (autoscale::RatePolicy{RateKind::Percent, 100, 15s}));
    EXPECT_EQ(parseRatePolicyArgument("percent:25%:1min"), (autoscale::RatePolicy{RateKind::Percent, 25, 1min}));
    EXPECT_EQ(parseRatePolicyArgument("absolute:500:500ms"),
              (autoscale::RatePolicy{RateKind::Absolute, 500, 500ms}));
    EXPECT_EQ(parseRatePolicyArgument("absolute:1:1min 30s"), (autoscale::RatePolicy{RateKind::Absolute, 1, 90s}));
}

TEST(RatePolicyArgument, RefusesWhatItCannotRead)
{
    EXPECT_FALSE(parseRatePolicyArgument(""));
    EXPECT_FALSE(parseRatePolicyArgument("percent"));
    EXPECT_FALSE(parseRatePolicyArgument("percent:100"));
    EXPECT_FALSE(parseRatePolicyArgument("percent::15s"));
    EXPECT_FALSE(parseRatePolicyArgument("percent:100:"));
    EXPECT_FALSE(parseRatePolicyArgument("percent:100:15s:1"));
    EXPECT_FALSE(parseRatePolicyArgument("Percent:100:15s"));
    EXPECT_FALSE(parseRatePolicyArgument("relative:100:15s"));
    // Absolute is in the resource's own unit, one plain integer for both.
    EXPECT_FALSE(parseRatePolicyArgument("absolute:500m:15s"));
    EXPECT_FALSE(parseRatePolicyArgument("absolute:1.5:15s"));
}

TEST(RatePolicyArgument, FormatsAsItIsWritten)
{
    EXPECT_EQ(formatRatePolicy({autoscale::RateKind::Percent, 100, 15s}), "percent:100:15s");
    EXPECT_EQ(formatRatePolicy({autoscale::RateKind::Absolute, 500, 90s}), "absolute:500:1min 30s");
    for (const char* text : {"percent:10:5min", "absolute:268435456:30s"})
        EXPECT_EQ(formatRatePolicy(*parseRatePolicyArgument(text)), text);
}

TEST(AutoscaleWords, ReadBackWhatTheyWrite)
{
    for (const auto select : {autoscale::Select::Max, autoscale::Select::Min, autoscale::Select::Disabled})
        EXPECT_EQ(parseSelectArgument(selectName(select)), select);
    for (const auto mode : {autoscale::Mode::Auto, autoscale::Mode::Recommend})
        EXPECT_EQ(parseModeArgument(modeName(mode)), mode);
    EXPECT_FALSE(parseSelectArgument("Max"));
    EXPECT_EQ(formatFraction(0.1), "0.1");
    EXPECT_EQ(parseFractionArgument("0.25"), 0.25);
    EXPECT_FALSE(parseFractionArgument("0.25x"));
    EXPECT_FALSE(parseFractionArgument("nan"));
}

TEST(AutoscaleOptions, MetricsAndPressureLandInThePolicy)
{
    const autoscale::Policy policy = policyOf({"--metric", "fps:60:higher", "--metric", "latency_ms:100",
                                               "--metric", "rss_mb:500:memory", "--metric-max-age", "30s",
                                               "--cpu-pressure", "10", "--memory-pressure", "2.5%"});

    EXPECT_EQ(policy.metrics, (std::map<std::string, autoscale::MetricTarget>{
                                  {"fps", {60, autoscale::Direction::HigherIsBetter, autoscale::MetricResource::Cpu}},
                                  {"latency_ms", {100, autoscale::Direction::LowerIsBetter, autoscale::MetricResource::Cpu}},
                                  {"rss_mb", {500, autoscale::Direction::LowerIsBetter, autoscale::MetricResource::Memory}},
                              }));
    EXPECT_EQ(policy.metricMaxAge, 30s);
    EXPECT_EQ(policy.cpuPressureTarget, 10.0);
    EXPECT_EQ(policy.memoryPressureTarget, 2.5);
    // Scaled by metrics alone: a target of no utilization, as the daemon has it.
    EXPECT_EQ(policy.cpu, (autoscale::Target{0, 0, autoscale::kUnbounded}));
    EXPECT_EQ(policy.memory, (autoscale::Target{0, 0, autoscale::kUnbounded}));
    EXPECT_EQ(autoscale::invalidity(policy), std::nullopt);
}

TEST(AutoscaleOptions, MetricsReplaceThoseInForceAndTheRestStays)
{
    CLI::App command;
    AutoscaleArguments parsed;
    addAutoscaleOptions(command, parsed);
    command.parse(std::vector<std::string>{"fps:1:lower:cpu", "--metric"});
    autoscale::Policy base;
    base.cpu = autoscale::Target{70, 0, autoscale::kUnbounded};
    base.metrics = {{"latency_ms", {100}}};
    base.cpuPressureTarget = 20;

    const autoscale::Policy policy = parsed.policy(base);

    EXPECT_EQ(policy.metrics, (std::map<std::string, autoscale::MetricTarget>{{"fps", {1}}}));
    EXPECT_EQ(policy.cpuPressureTarget, 20.0);
    EXPECT_EQ(policy.cpu, base.cpu);
    EXPECT_EQ(parsed.policy(autoscale::Policy{}).cpu, (autoscale::Target{0, 0, autoscale::kUnbounded}));
}

TEST(AutoscaleOptions, BadMetricsAndPressuresAreUsageErrorsNamingTheOption)
{
    for (const auto& arguments : std::vector<std::vector<std::string>>{
             {"--metric", ":60"},
             {"--metric", "fps"},
             {"--metric", "fps:sixty"},
             {"--metric", "fps:0"},
             {"--metric", "fps:-3"},
             {"--metric", "fps:60:sideways"},
             {"--metric", "fps:60:higher:disk"},
             {"--metric", "fps:60:higher:cpu:extra"},
             {"--metric-max-age", "old"},
             {"--cpu-pressure", "0"},
             {"--cpu-pressure", "100.5"},
             {"--memory-pressure", "some"},
         }) {
        try {
            policyOf(arguments);
            ADD_FAILURE() << arguments[0] << " " << arguments[1] << " was taken";
        } catch (const CLI::ValidationError& error) {
            EXPECT_NE(std::string(error.what()).find(arguments[0] + ": '" + arguments[1] + "'"), std::string::npos)
                << error.what();
        }
    }
    EXPECT_EQ(parsePressureArgument("100"), 100.0);
}

TEST(ReportedValue, IsNameEqualsANumber)
{
    EXPECT_EQ(parseReportedValue("fps=58.5"), (std::pair<std::string, double>{"fps", 58.5}));
    EXPECT_EQ(parseReportedValue("queue=0"), (std::pair<std::string, double>{"queue", 0}));
    EXPECT_FALSE(parseReportedValue("=3"));
    EXPECT_FALSE(parseReportedValue("fps"));
    EXPECT_FALSE(parseReportedValue("fps=fast"));
    EXPECT_FALSE(parseReportedValue("fps=inf"));
}

TEST(AutoscaleOptions, MetricWordsReadBack)
{
    EXPECT_EQ(formatMetric("fps", {60, autoscale::Direction::HigherIsBetter, autoscale::MetricResource::Memory}),
              "fps:60:higher:memory");
    EXPECT_EQ(parseMetricArgument("fps:60:higher:memory"),
              (NamedMetric{"fps", {60, autoscale::Direction::HigherIsBetter, autoscale::MetricResource::Memory}}));
}

class AutoscaleBlock : public ::testing::Test {
protected:
    void SetUp() override
    {
        setenv("TZ", "UTC", 1);
        tzset();
    }
};

TEST_F(AutoscaleBlock, ShowsThePolicyThenWhatTheAutoscalerSaw)
{
    constexpr uint64_t kLastScaleUSec = 1'704'362'400'000'000;  // 2024-01-04 10:00:00 UTC
    const Clock::time_point now{std::chrono::microseconds(kLastScaleUSec) + 3min};
    autoscale::Policy policy;
    policy.cpu = autoscale::Target{70, 500, autoscale::kUnbounded};
    policy.memory = autoscale::Target{80, 256 * kMi, 4 * kGi};
    const Dictionary status{
        {"CpuUsageMillis", sdbus::Variant(uint64_t{350})},
        {"CpuRecommendationMillis", sdbus::Variant(uint64_t{500})},
        {"MemoryWorkingSet", sdbus::Variant(uint64_t{300 * kMi})},
        {"Condition", sdbus::Variant(std::string("ScaleDownStabilized"))},
        {"CpuCondition", sdbus::Variant(std::string("ScaleUpLimit"))},
        {"MemoryCondition", sdbus::Variant(std::string("ScaleDownStabilized"))},
        {"LastScaleUSec", sdbus::Variant(kLastScaleUSec)},
    };

    EXPECT_EQ(formatAutoscaleBlock("web", policy, status, now),
              "● web\n"
              "                  Mode: auto\n"
              "                   CPU: target 70%, limit between 500m and max\n"
              "                Memory: target 80%, limit between 256Mi and 4Gi\n"
              "              Interval: 1s\n"
              "             Tolerance: 0.1\n"
              "              Scale up: window 0s, percent:100:15s, select max\n"
              "            Scale down: window 5min, percent:100:15s, select max\n"
              "             CPU usage: 350m\n"
              "    CPU recommendation: 500m\n"
              "    Memory working set: 300Mi\n"
              "             Condition: ScaleDownStabilized\n"
              "         CPU condition: ScaleUpLimit\n"
              "      Memory condition: ScaleDownStabilized\n"
              "           Last scaled: Thu 2024-01-04 10:00:00 UTC; 3min ago\n");
}

TEST_F(AutoscaleBlock, ShowsMetricsWithTheirReportedValuesAndPressure)
{
    autoscale::Policy policy;
    policy.cpu = autoscale::Target{0, 0, autoscale::kUnbounded};
    policy.metrics = {{"fps", {60, autoscale::Direction::HigherIsBetter}}, {"latency_ms", {100}}};
    policy.cpuPressureTarget = 10;
    const Dictionary status{{"Metrics", sdbus::Variant(std::map<std::string, double>{{"fps", 58.5}})}};

    const std::string block = formatAutoscaleBlock("game", policy, status, Clock::now());

    EXPECT_NE(block.find("Metric: fps:60:higher:cpu, reported 58.5\n"), std::string::npos) << block;
    EXPECT_NE(block.find("Metric: latency_ms:100:lower:cpu\n"), std::string::npos) << block;
    EXPECT_NE(block.find("Metric max age: 10s\n"), std::string::npos) << block;
    EXPECT_NE(block.find("CPU pressure: target 10%\n"), std::string::npos) << block;
    EXPECT_EQ(block.find("Memory pressure"), std::string::npos) << block;
}

TEST_F(AutoscaleBlock, LeavesOutWhatIsNotKnownYet)
{
    autoscale::Policy policy;
    policy.memory = autoscale::Target{80, 0, autoscale::kUnbounded};
    policy.mode = autoscale::Mode::Recommend;

    EXPECT_EQ(formatAutoscaleBlock("db", policy, Dictionary{}, Clock::now()),
              "● db\n"
              "          Mode: recommend (publishes recommendations, changes nothing)\n"
              "        Memory: target 80%, limit between 0 and max\n"
              "      Interval: 1s\n"
              "     Tolerance: 0.1\n"
              "      Scale up: window 0s, percent:100:15s, select max\n"
              "    Scale down: window 5min, percent:100:15s, select max\n");
}

}  // namespace
}  // namespace resized::ctl
