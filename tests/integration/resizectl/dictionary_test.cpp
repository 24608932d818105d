#include <gtest/gtest.h>

#include "core/resources.h"
#include "resources_for_tests.h"
#include "dictionary.h"

namespace resized::ctl {
namespace {

using namespace std::chrono_literals;

TEST(ResourceDictionary, CarriesOnlyTheNamedKeysWithContractTypes)
{
    core::Resources resources = cpuAndMemory(1500, std::nullopt);
    resources.allowedCpus = core::CpuSet{0, 1};
    const Dictionary dictionary = toDictionary(resources);

    ASSERT_EQ(dictionary.size(), 2u);
    EXPECT_EQ(dictionary.at("CpuMillis").peekValueType(), "t");
    EXPECT_EQ(dictionary.at("CpuMillis").get<uint64_t>(), 1500u);
    EXPECT_EQ(dictionary.at("AllowedCpus").peekValueType(), "s");
    EXPECT_EQ(dictionary.at("AllowedCpus").get<std::string>(), "0-1");
}

TEST(ResourceDictionary, RoundTripsEveryResource)
{
    const core::Resources resources{
        .cpuMillis = 250,
        .memoryMax = core::kUnlimited,
        .memoryHigh = 256ull << 20,
        .cpuWeight = 100,
        .allowedCpus = core::CpuSet{},
    };
    EXPECT_EQ(resourcesFromDictionary(toDictionary(resources)), resources);
}

TEST(ResourceDictionary, SkipsKeysOfAnUnexpectedType)
{
    const Dictionary dictionary{{"CpuMillis", sdbus::Variant(std::string("1500m"))},
                                {"MemoryMax", sdbus::Variant(uint64_t{512} << 20)},
                                {"SomethingNewer", sdbus::Variant(uint64_t{1})}};
    EXPECT_EQ(resourcesFromDictionary(dictionary), cpuAndMemory(std::nullopt, 512ull << 20));
}

TEST(OptionsDictionary, SendsOnlyWhatWasAsked)
{
    EXPECT_TRUE(toDictionary(UpdateOptions{}).empty());

    const Dictionary dictionary = toDictionary(UpdateOptions{.force = true, .reclaimTimeout = 5s, .pool = "batch"});
    ASSERT_EQ(dictionary.size(), 3u);
    EXPECT_TRUE(dictionary.at("Force").get<bool>());
    EXPECT_EQ(dictionary.at("ReclaimTimeoutUSec").peekValueType(), "t");
    EXPECT_EQ(dictionary.at("ReclaimTimeoutUSec").get<uint64_t>(), 5'000'000u);
    EXPECT_EQ(dictionary.at("Pool").get<std::string>(), "batch");
}

TEST(OptionsDictionary, SendsAnEmptyPoolToLeaveOne)
{
    const Dictionary dictionary = toDictionary(UpdateOptions{.reclaimTimeout = std::nullopt, .pool = ""});
    ASSERT_EQ(dictionary.size(), 1u);
    EXPECT_EQ(dictionary.at("Pool").peekValueType(), "s");
    EXPECT_EQ(dictionary.at("Pool").get<std::string>(), "");
}

TEST(PoolChangesDictionary, SendsOnlyTheCapsGiven)
{
    EXPECT_TRUE(toDictionary(PoolChanges{}).empty());

    const Dictionary dictionary = toDictionary(PoolChanges{.cpuMillis = 1500, .memoryMax = std::nullopt});
    ASSERT_EQ(dictionary.size(), 1u);
    EXPECT_EQ(dictionary.at("CpuMillis").peekValueType(), "t");
    EXPECT_EQ(dictionary.at("CpuMillis").get<uint64_t>(), 1500u);

    const Dictionary uncapped = toDictionary(PoolChanges{.cpuMillis = std::nullopt, .memoryMax = core::kUnlimited});
    EXPECT_EQ(uncapped.at("MemoryMax").get<uint64_t>(), UINT64_MAX);
}

// No budgets given leaves the pool's; an empty list clears them.
TEST(PoolChangesDictionary, SendsBudgetsOnlyWhenGivenEvenNone)
{
    EXPECT_FALSE(toDictionary(PoolChanges{.cpuMillis = 1500}).contains("Budgets"));

    const Dictionary cleared = toDictionary(PoolChanges{.budgets = std::vector<Dictionary>{}});
    ASSERT_EQ(cleared.size(), 1u);
    EXPECT_EQ(cleared.at("Budgets").peekValueType(), "aa{sv}");
    EXPECT_TRUE(cleared.at("Budgets").get<std::vector<Dictionary>>().empty());

    const Dictionary two = toDictionary(
        PoolChanges{.budgets = std::vector<Dictionary>{{{"Value", sdbus::Variant("2")}},
                                                       {{"Value", sdbus::Variant("25%")}}}});
    const auto budgets = two.at("Budgets").get<std::vector<Dictionary>>();
    ASSERT_EQ(budgets.size(), 2u);
    EXPECT_EQ(budgets[1].at("Value").get<std::string>(), "25%");
}

TEST(Json, ShowsABudgetListAsAnArrayOfObjects)
{
    const Dictionary pool{{"Budgets", sdbus::Variant(std::vector<Dictionary>{
                                          {{"Value", sdbus::Variant("30%")},
                                           {"PeriodUSec", sdbus::Variant(uint64_t{600'000'000})},
                                           {"Reasons", sdbus::Variant(std::vector<std::string>{"manual"})}}})}};
    EXPECT_EQ(toJson(pool), nlohmann::json::parse(R"({"Budgets": [{"Value": "30%", "PeriodUSec": 600000000,
                                                                   "Reasons": ["manual"]}]})"));
}

TEST(Json, KeepsNumbersExactAndNestsDictionaries)
{
    const Dictionary status{
        {"Workload", sdbus::Variant(std::string("web"))},
        {"Generation", sdbus::Variant(uint64_t{3})},
        {"Desired", sdbus::Variant(toDictionary(cpuAndMemory(std::nullopt, core::kUnlimited)))},
        {"Object", sdbus::Variant(sdbus::ObjectPath("/io/resized1/workload/web"))},
        {"Connected", sdbus::Variant(true)},
    };
    const nlohmann::json json = toJson(status);

    EXPECT_EQ(json["Workload"], "web");
    EXPECT_EQ(json["Generation"], 3u);
    EXPECT_EQ(json["Desired"]["MemoryMax"].get<uint64_t>(), core::kUnlimited);
    EXPECT_EQ(json["Object"], "/io/resized1/workload/web");
    EXPECT_EQ(json["Connected"], true);
    EXPECT_NE(json.dump().find("18446744073709551615"), std::string::npos);
}

TEST(Json, ShowsRatePoliciesAsArrays)
{
    using RatePolicies = std::vector<sdbus::Struct<std::string, uint64_t, uint64_t>>;
    const Dictionary policy{{"ScaleUpPolicies", sdbus::Variant(RatePolicies{{"Percent", 100, 15'000'000}})}};

    EXPECT_EQ(toJson(policy).dump(), R"({"ScaleUpPolicies":[["Percent",100,15000000]]})");
}

TEST(Lookup, FallsBackOnMissingKeyOrOtherType)
{
    const Dictionary status{{"SyncState", sdbus::Variant(std::string("synchronized"))}};
    EXPECT_EQ(lookup<std::string>(status, "SyncState"), "synchronized");
    EXPECT_EQ(lookup<std::string>(status, "UpdateState", "unknown"), "unknown");
    EXPECT_EQ(lookup<uint64_t>(status, "SyncState", 7), 7u);
}

}  // namespace
}  // namespace resized::ctl
