#include "store/autoscale_store.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "store/state_store.h"

#include "temp_directory.h"
#include "unusual_autoscale_policy.h"

using namespace resized;
namespace autoscale = core::autoscale;

namespace {

class AutoscaleStoreTest : public ::testing::Test {
protected:
    std::filesystem::path file() const { return directory_.path() / "state.db"; }

    resized::test::TempDirectory directory_;
};

TEST_F(AutoscaleStoreTest, PoliciesSurviveReopeningWithEveryField)
{
    {
        store::StateStore state(file());
        store::AutoscaleStore(state.database()).savePolicy("web", test::unusualAutoscalePolicy());
    }
    store::StateStore state(file());
    const auto policies = store::AutoscaleStore(state.database()).policies();
    ASSERT_EQ(policies.size(), 1U);
    EXPECT_EQ(policies.at("web"), test::unusualAutoscalePolicy());
}

TEST_F(AutoscaleStoreTest, SavingAgainReplacesThePolicy)
{
    store::StateStore state(file());
    store::AutoscaleStore store(state.database());
    store.savePolicy("web", test::unusualAutoscalePolicy());
    autoscale::Policy replacement;
    replacement.cpu = autoscale::Target{.utilizationPercent = 60};
    store.savePolicy("web", replacement);

    const auto policies = store.policies();
    ASSERT_EQ(policies.size(), 1U);
    EXPECT_EQ(policies.at("web").cpu->utilizationPercent, 60U);
    EXPECT_FALSE(policies.at("web").memory);
}

TEST_F(AutoscaleStoreTest, HistoryKeepsWhatComesAfterTheHorizonPerWorkloadAndResource)
{
    store::StateStore state(file());
    store::AutoscaleStore store(state.database());
    const auto at = [](int64_t seconds) { return autoscale::Micros(seconds * 1'000'000); };
    store.addRecommendations({{"web", "cpu", {at(1), 100}, at(0)},
                              {"web", "cpu", {at(2), 200}, at(0)},
                              {"web", "memory", {at(2), 1 << 30}, at(0)},
                              {"db", "cpu", {at(2), 300}, at(0)}});
    // Keeps what is after second 1: drops web's first recommendation only.
    store.addRecommendations({{"web", "cpu", {at(3), autoscale::kUnbounded}, at(1)}});
    store.addEvent("web", "cpu", {at(2), 100, 200}, at(0));
    store.addEvent("web", "cpu", {at(5), 200, 150}, at(2));

    const auto web = store.history("web", "cpu");
    EXPECT_EQ(web.recommendations,
              (std::vector<autoscale::Recommendation>{{at(2), 200}, {at(3), autoscale::kUnbounded}}));
    EXPECT_EQ(web.events, (std::vector<autoscale::ScaleEvent>{{at(5), 200, 150}}));
    EXPECT_EQ(store.history("web", "memory").recommendations.size(), 1U);
    EXPECT_EQ(store.history("db", "cpu").recommendations.size(), 1U);
}

TEST_F(AutoscaleStoreTest, RemovingAPolicyForgetsItsHistoryOnly)
{
    store::StateStore state(file());
    store::AutoscaleStore store(state.database());
    store.savePolicy("web", test::unusualAutoscalePolicy());
    store.savePolicy("db", test::unusualAutoscalePolicy());
    store.addRecommendations({{"web", "cpu", {autoscale::Micros(1), 100}, autoscale::Micros(0)},
                              {"db", "cpu", {autoscale::Micros(1), 100}, autoscale::Micros(0)}});
    store.addEvent("web", "cpu", {autoscale::Micros(1), 100, 200}, autoscale::Micros(0));

    store.removePolicy("web");

    EXPECT_EQ(store.policies().count("web"), 0U);
    EXPECT_EQ(store.history("web", "cpu"), autoscale::History{});
    EXPECT_EQ(store.policies().count("db"), 1U);
    EXPECT_EQ(store.history("db", "cpu").recommendations.size(), 1U);
}

TEST_F(AutoscaleStoreTest, ADamagedPolicyIsAStoreError)
{
    EXPECT_THROW(store::policyFromJson("{\"interval_usec\": 1}"), store::StoreError);
    EXPECT_THROW(store::policyFromJson("not json"), store::StoreError);
}

}  // namespace
