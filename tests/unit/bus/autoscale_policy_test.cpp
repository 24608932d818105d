#include "dbus_codec/autoscale_policy.h"

#include <gtest/gtest.h>

#include "unusual_autoscale_policy.h"

namespace resized::dbus_codec {
namespace {

using RatePolicies = std::vector<sdbus::Struct<std::string, uint64_t, uint64_t>>;

std::string refusal(const Dictionary& dictionary)
{
    try {
        decodeAutoscalePolicy(dictionary);
    } catch (const InvalidDictionary& error) {
        return error.what();
    }
    return "accepted";
}

TEST(AutoscalePolicyDictionary, RoundTripsEveryField)
{
    const auto policy = test::unusualAutoscalePolicy();
    EXPECT_EQ(decodeAutoscalePolicy(encodeAutoscalePolicy(policy)), policy);
}

TEST(AutoscalePolicyDictionary, KeysLeftOutKeepTheirDefaults)
{
    const auto policy = decodeAutoscalePolicy({{"MemoryTargetUtilization", sdbus::Variant(uint32_t{80})}});
    core::autoscale::Policy expected;
    expected.memory =
        core::autoscale::Target{.utilizationPercent = 80, .min = core::autoscale::kDefaultMemoryMinBytes};
    EXPECT_EQ(policy, expected);
}

// VPA's minimums unless the policy names its own; never above its maximum.
TEST(AutoscalePolicyDictionary, TheDefaultMinimumsAreVpasWithinTheMaximum)
{
    const auto cpu = decodeAutoscalePolicy({{"CpuTargetUtilization", sdbus::Variant(uint32_t{50})}});
    EXPECT_EQ(cpu.cpu->min, 25U);
    const auto small = decodeAutoscalePolicy({{"MemoryTargetUtilization", sdbus::Variant(uint32_t{80})},
                                              {"MemoryMaxBytes", sdbus::Variant(uint64_t{100} << 20)}});
    EXPECT_EQ(small.memory->min, uint64_t{100} << 20);
    const auto named = decodeAutoscalePolicy({{"MemoryTargetUtilization", sdbus::Variant(uint32_t{80})},
                                              {"MemoryMinBytes", sdbus::Variant(uint64_t{4} << 20)}});
    EXPECT_EQ(named.memory->min, uint64_t{4} << 20);
}

TEST(AutoscalePolicyDictionary, MetricsNeedATargetAndKnownWords)
{
    using Metrics = std::vector<sdbus::Struct<std::string, Dictionary>>;
    const auto metrics = [](Dictionary fields) {
        return Dictionary{{"Metrics", sdbus::Variant(Metrics{{"fps", std::move(fields)}})}};
    };
    const auto decoded = decodeAutoscalePolicy(metrics({{"Target", sdbus::Variant(60.0)}}));
    EXPECT_EQ(decoded.metrics.at("fps").direction, core::autoscale::Direction::LowerIsBetter);
    // Scaled by the metric alone, CPU has its bounds all the same.
    ASSERT_TRUE(decoded.cpu);
    EXPECT_EQ(decoded.cpu->utilizationPercent, 0U);
    EXPECT_EQ(decoded.cpu->min, 25U);
    EXPECT_EQ(refusal(metrics({})), "Metrics \"fps\" has no Target");
    EXPECT_EQ(refusal(metrics({{"Target", sdbus::Variant(60.0)}, {"Direction", sdbus::Variant(std::string("Up"))}})),
              "Metrics \"fps\" Direction \"Up\" is none of LowerIsBetter, HigherIsBetter");
    EXPECT_EQ(refusal(metrics({{"Target", sdbus::Variant(60.0)}, {"Goal", sdbus::Variant(1.0)}})),
              "unknown key \"Goal\" in Metrics \"fps\" (known: Target, Direction, Resource)");
}

// A pressure target alone scales its resource, within the resource's
// default bounds; the percent is the caller's to get right.
TEST(AutoscalePolicyDictionary, APressureTargetAloneScalesItsResource)
{
    const auto decoded = decodeAutoscalePolicy({{"MemoryPressureTarget", sdbus::Variant(5.0)}});
    EXPECT_EQ(decoded.memoryPressureTarget, 5.0);
    ASSERT_TRUE(decoded.memory);
    EXPECT_EQ(decoded.memory->utilizationPercent, 0U);
    EXPECT_EQ(decoded.memory->min, core::autoscale::kDefaultMemoryMinBytes);
    EXPECT_FALSE(decoded.cpu);
    EXPECT_EQ(refusal({{"CpuPressureTarget", sdbus::Variant(150.0)}}),
              "CpuPressureTarget must be a percent above 0 and at most 100");
    EXPECT_NE(refusal({{"CpuPressureTarget", sdbus::Variant(uint32_t{10})}}), "accepted");
}

TEST(AutoscalePolicyDictionary, EncodesWithTheContractsNamesAndTypes)
{
    const auto dictionary = encodeAutoscalePolicy(test::unusualAutoscalePolicy());
    EXPECT_EQ(dictionary.at("CpuTargetUtilization").get<uint32_t>(), 70U);
    EXPECT_EQ(dictionary.at("MemoryMaxBytes").get<uint64_t>(), core::autoscale::kUnbounded);
    EXPECT_EQ(dictionary.at("IntervalUSec").get<uint64_t>(), 250'000U);
    EXPECT_EQ(dictionary.at("Tolerance").get<double>(), 0.05);
    EXPECT_EQ(dictionary.at("ScaleUpSelect").get<std::string>(), "Min");
    EXPECT_EQ(dictionary.at("ScaleDownSelect").get<std::string>(), "Disabled");
    EXPECT_EQ(dictionary.at("Mode").get<std::string>(), "recommend");
    EXPECT_EQ(dictionary.at("CpuPressureTarget").get<double>(), 12.5);
    const auto rates = dictionary.at("ScaleUpPolicies").get<RatePolicies>();
    ASSERT_EQ(rates.size(), 2U);
    EXPECT_EQ(rates[0].get<0>(), "Absolute");
    EXPECT_EQ(rates[0].get<1>(), 500U);
    EXPECT_EQ(rates[0].get<2>(), 10'000'000U);
}

TEST(AutoscalePolicyDictionary, AWorkloadWithoutATargetHasNoTargetKeys)
{
    core::autoscale::Policy policy;
    policy.cpu = core::autoscale::Target{.utilizationPercent = 50};
    const auto dictionary = encodeAutoscalePolicy(policy);
    EXPECT_TRUE(dictionary.contains("CpuMaxMillis"));
    EXPECT_FALSE(dictionary.contains("MemoryTargetUtilization"));
    EXPECT_FALSE(dictionary.contains("MemoryMaxBytes"));
}

TEST(AutoscalePolicyDictionary, RefusesWhatTheContractDoesNotHave)
{
    const auto target = std::pair{std::string("CpuTargetUtilization"), sdbus::Variant(uint32_t{50})};
    EXPECT_EQ(refusal({}),
              "a policy needs CpuTargetUtilization, MemoryTargetUtilization, Metrics or a pressure target");
    EXPECT_NE(refusal({target, {"CpuTarget", sdbus::Variant(uint32_t{1})}}).find("unknown autoscale policy key"),
              std::string::npos);
    EXPECT_EQ(refusal({target, {"Mode", sdbus::Variant(std::string("off"))}}),
              "Mode \"off\" is none of auto, recommend");
    EXPECT_EQ(refusal({target, {"ScaleDownSelect", sdbus::Variant(std::string("max"))}}),
              "ScaleDownSelect \"max\" is none of Max, Min, Disabled");
    EXPECT_EQ(refusal({target, {"ScaleUpPolicies", sdbus::Variant(RatePolicies{{"Pods", 1, 1}})}}),
              "ScaleUpPolicies \"Pods\" is none of Percent, Absolute");
    EXPECT_EQ(refusal({{"CpuTargetUtilization", sdbus::Variant(uint64_t{50})}}),
              "CpuTargetUtilization must be of D-Bus type 'u', got 't'");
    EXPECT_EQ(refusal({target, {"CpuMinMillis", sdbus::Variant(uint64_t{800})},
                       {"CpuMaxMillis", sdbus::Variant(uint64_t{500})}}),
              "CpuMinMillis 800 is above CpuMaxMillis 500");
}

}  // namespace
}  // namespace resized::dbus_codec
