#include "core/pod_budget.h"

#include <gtest/gtest.h>

namespace resized::core {
namespace {

TEST(PodBudget, APodsLimitCoversOnlyTheResourcesItLimits)
{
    EXPECT_EQ(outsidePodLimit({500, 1024}, {1000, 0}), (Amounts{0, 1024}));
    EXPECT_EQ(outsidePodLimit({500, 1024}, {0, 4096}), (Amounts{500, 0}));
    EXPECT_EQ(outsidePodLimit({500, 1024}, {}), (Amounts{500, 1024}));
}

TEST(PodBudget, AGroupCountsThePodsLimitWhereItHasOneAndItsMembersSumElsewhere)
{
    EXPECT_EQ(podGroupAllocation({1000, 0}, {1500, 2048}), (Amounts{1000, 2048}));
    EXPECT_EQ(podGroupAllocation({}, {1500, 2048}), (Amounts{1500, 2048}));
}

TEST(PodBudget, TheFirstMemberBeyondThePodsLimitIsNamed)
{
    const std::vector<PodMemberLimit> members{{"cart", {500, 0}}, {"till", {1200, 0}}, {"web", {1500, 0}}};

    const auto refusal = refuseOutsidePod("shop", {1000, 0}, members);

    ASSERT_TRUE(refusal);
    EXPECT_EQ(refusal->verdict, Verdict::Infeasible);
    EXPECT_EQ(refusal->reason, "pod shop: till's limit of 1200m CPU is more than the pod's 1 CPU");
    EXPECT_FALSE(refuseOutsidePod("shop", {1500, 0}, members));
    // A resource the pod does not limit holds anything.
    EXPECT_FALSE(refuseOutsidePod("shop", {0, 4096}, members));
}

}  // namespace
}  // namespace resized::core
