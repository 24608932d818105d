// plan submit's changes and options, read from the command line and from a
// plan file, become what SubmitPlan takes.

#include <gtest/gtest.h>

#include <CLI/CLI.hpp>

#include "plan_request.h"

namespace resized::ctl {
namespace {

constexpr uint64_t kGi = 1ull << 30;

TEST(PlanChanges, EachWorkloadTakesTheAssignmentsAfterIt)
{
    const auto changes = parsePlanChanges({"web", "cpus=500m", "memory=1g", "db", "CPUQuota=150%"});
    ASSERT_EQ(changes.size(), 2u);
    EXPECT_EQ(changes[0].get<0>(), "web");
    EXPECT_EQ(changes[0].get<1>().at("CpuMillis").get<uint64_t>(), 500u);
    EXPECT_EQ(changes[0].get<1>().at("MemoryMax").get<uint64_t>(), kGi);
    EXPECT_EQ(changes[1].get<0>(), "db");
    ASSERT_EQ(changes[1].get<1>().size(), 1u);
    EXPECT_EQ(changes[1].get<1>().at("CpuMillis").get<uint64_t>(), 1500u);
}

TEST(PlanChanges, KindPrefixesAreNames)
{
    const auto changes = parsePlanChanges({"pod:shop", "memory=2g", "unit:nginx.service", "cpus=1"});
    ASSERT_EQ(changes.size(), 2u);
    EXPECT_EQ(changes[0].get<0>(), "pod:shop");
    EXPECT_EQ(changes[1].get<0>(), "unit:nginx.service");
}

TEST(PlanChanges, RefusesWhatSetWouldRefuseAndAmbiguousPlans)
{
    EXPECT_THROW(parsePlanChanges({}), CLI::ValidationError);
    EXPECT_THROW(parsePlanChanges({"cpus=1"}), CLI::ValidationError);
    EXPECT_THROW(parsePlanChanges({"web"}), CLI::ValidationError);
    EXPECT_THROW(parsePlanChanges({"web", "cpus=1", "db"}), CLI::ValidationError);
    EXPECT_THROW(parsePlanChanges({"web", "cpus=lots"}), CLI::ValidationError);
    EXPECT_THROW(parsePlanChanges({"web", "cpus=1", "CPUQuota=50%"}), CLI::ValidationError);
    EXPECT_THROW(parsePlanChanges({"web", "cpus=1", "web", "memory=1g"}), CLI::ValidationError);
    try {
        parsePlanChanges({"web", "cpus=1", "db"});
    } catch (const CLI::ValidationError& error) {
        EXPECT_EQ(std::string(error.what()).rfind("db: ", 0), 0u) << error.what();
    }
}

TEST(PlanFile, TakesTheChangesAsPlanStatusShowsThem)
{
    const auto document = nlohmann::json::parse(R"({
        "Id": 7, "State": "succeeded",
        "Changes": [{"Workload": "web", "Resources": {"CpuMillis": 500, "AllowedCpus": "0-1"}},
                    {"Workload": "db", "Resources": {"MemoryMax": 18446744073709551615}}]})");
    const auto changes = planChangesFromJson(document);
    ASSERT_EQ(changes.size(), 2u);
    EXPECT_EQ(changes[0].get<0>(), "web");
    EXPECT_EQ(changes[0].get<1>().at("CpuMillis").peekValueType(), "t");
    EXPECT_EQ(changes[0].get<1>().at("CpuMillis").get<uint64_t>(), 500u);
    EXPECT_EQ(changes[0].get<1>().at("AllowedCpus").get<std::string>(), "0-1");
    EXPECT_EQ(changes[1].get<1>().at("MemoryMax").get<uint64_t>(), UINT64_MAX);
}

TEST(PlanFile, RefusesADocumentOfAnotherShape)
{
    for (const char* text :
         {R"([])", R"({})", R"({"Changes": []})", R"({"Changes": [{"Workload": "web"}]})",
          R"({"Changes": [{"Workload": 1, "Resources": {}}]})",
          R"({"Changes": [{"Workload": "web", "Resources": {"CpuMillis": -1}}]})",
          R"({"Changes": [{"Workload": "web", "Resources": {"CpuMillis": 0.5}}]})",
          R"({"Changes": [{"Workload": "web", "Resources": {"CpuMillis": 1}},
                          {"Workload": "web", "Resources": {"MemoryMax": 1}}]})"})
        EXPECT_THROW(planChangesFromJson(nlohmann::json::parse(text)), CLI::ValidationError) << text;
}

TEST(PlanOptions, SendsOnlyTheOptionsGiven)
{
    EXPECT_TRUE(toDictionary(PlanOptions{}).empty());

    PlanOptions options;
    options.dryRun = true;
    options.delay = std::chrono::hours(1);
    options.reason = "manual";
    options.expectedGenerations = {{"web", 4}, {"db", 2}};
    options.defer = true;
    const Dictionary dictionary = toDictionary(options);
    EXPECT_EQ(dictionary.at("DryRun").get<bool>(), true);
    EXPECT_EQ(dictionary.at("DelayUSec").peekValueType(), "t");
    EXPECT_EQ(dictionary.at("DelayUSec").get<uint64_t>(), 3'600'000'000u);
    EXPECT_EQ(dictionary.at("Reason").get<std::string>(), "manual");
    EXPECT_EQ(dictionary.at("ExpectedGenerations").peekValueType(), "a{st}");
    EXPECT_EQ((dictionary.at("ExpectedGenerations").get<std::map<std::string, uint64_t>>()),
              (std::map<std::string, uint64_t>{{"web", 4}, {"db", 2}}));
    EXPECT_EQ(dictionary.at("Defer").get<bool>(), true);
}

TEST(PlanArguments, ReadsExpectationsAndPlanReferences)
{
    EXPECT_EQ(parseExpectedGeneration("web=4"), (std::pair<std::string, uint64_t>{"web", 4}));
    EXPECT_EQ(parseExpectedGeneration("pod:shop=0"), (std::pair<std::string, uint64_t>{"pod:shop", 0}));
    EXPECT_EQ(parseExpectedGeneration("web"), std::nullopt);
    EXPECT_EQ(parseExpectedGeneration("=4"), std::nullopt);
    EXPECT_EQ(parseExpectedGeneration("web=-1"), std::nullopt);

    EXPECT_EQ(parsePlanReference("7"), sdbus::ObjectPath("/io/resized1/plan/7"));
    EXPECT_EQ(parsePlanReference("007"), sdbus::ObjectPath("/io/resized1/plan/7"));
    EXPECT_EQ(parsePlanReference("/io/resized1/plan/12"), sdbus::ObjectPath("/io/resized1/plan/12"));
    EXPECT_EQ(parsePlanReference("web"), std::nullopt);
    EXPECT_EQ(parsePlanReference("/io/resized1/pool/7"), std::nullopt);
    EXPECT_EQ(planIdOf("/io/resized1/plan/12"), "12");
}

}  // namespace
}  // namespace resized::ctl
