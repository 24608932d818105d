#include "core/invariants.h"

#include <gtest/gtest.h>

namespace resized::core {
namespace {

std::vector<std::string> brokenFirstTime(const AdmittedState& state)
{
    // Seen once within its capacity, a level is held to it.
    AdmittedState within = state;
    within.node.allocated = {};
    within.node.reserved = {};
    for (auto& pool : within.pools)
        pool.allocated = pool.reserved = {};
    Tolerances tolerances;
    brokenInvariants(within, tolerances);
    return brokenInvariants(state, tolerances);
}

AdmittedState withinEverything()
{
    AdmittedState state;
    state.node = {"", {2000, 4096}, {1500, 1024}, {500, 0}};
    state.pools = {{"batch", {1000, kUnlimited}, {800, 512}, {200, 0}}};
    state.pods = {{"pod:shop", {1000, 0}, {{"cart", {800, 999999}}, {"till", {1000, 0}}}}};
    state.slices = {{"web", {{1}, {1}, ""}}, {"pod:shop", {{2, 3}, {2}, ""}}, {"cart", {{3}, {3}, "shop"}}};
    state.reservedCpus = {0};
    return state;
}

TEST(InvariantsTest, NothingBreaksWithinEveryCapAndWithDisjointSlices)
{
    EXPECT_EQ(brokenFirstTime(withinEverything()), std::vector<std::string>{});
}

// Admitted and reserved together: a reservation counts from admission.
TEST(InvariantsTest, TheNodeOrAPoolOverItsCapacityBreaks)
{
    AdmittedState state = withinEverything();
    state.node.reserved.cpuMillis = 501;
    state.pools[0].allocated.cpuMillis = 801;
    state.node.allocated.memory = 5000;

    EXPECT_EQ(brokenFirstTime(state),
              (std::vector<std::string>{"the node has 2001m CPU allocated and reserved, over its 2000m",
                                        "the node has 5000 bytes of memory allocated and reserved, over its 4096 bytes",
                                        "pool batch has 1001m CPU allocated and reserved, over its 1000m"}));
}

// A pod's limit of 0 is no limit: only the resources it limits bound its
// members.
TEST(InvariantsTest, AMemberOverItsPodsLimitBreaks)
{
    AdmittedState state = withinEverything();
    state.pods[0].members["till"].cpuMillis = 1001;

    EXPECT_EQ(brokenFirstTime(state),
              std::vector<std::string>{"till holds 1001m CPU, over its pod pod:shop's 1000m"});
}

TEST(InvariantsTest, SharedOrReservedCpusInSlicesBreak)
{
    AdmittedState state = withinEverything();
    state.slices["db"] = {{1, 0}, {1}, ""};

    EXPECT_EQ(brokenFirstTime(state),
              (std::vector<std::string>{"db's slice holds the reserved CPUs 0",
                                        "the slices of db and web share the CPUs 1"}));
}

// A member's slice comes out of its own pod's bubble, never another's.
TEST(InvariantsTest, OnlyAMembersSliceMayLieInsideItsPodsBubble)
{
    AdmittedState state = withinEverything();
    state.slices["stranger"] = {{2}, {2}, "other"};

    EXPECT_EQ(brokenFirstTime(state),
              std::vector<std::string>{"the slices of pod:shop and stranger share the CPUs 2"});
}

// A cap lowered below what is held takes nothing: what was held then is
// tolerated, and less of it as it is given back, never more again.
TEST(InvariantsTest, ACapLoweredBelowWhatIsHeldToleratesItUntilItIsGivenBack)
{
    AdmittedState state = withinEverything();
    Tolerances tolerances;
    EXPECT_EQ(brokenInvariants(state, tolerances), std::vector<std::string>{});
    state.pools[0].capacity.cpuMillis = 500;
    EXPECT_EQ(brokenInvariants(state, tolerances), std::vector<std::string>{});

    state.pools[0].allocated.cpuMillis = 700;
    EXPECT_EQ(brokenInvariants(state, tolerances), std::vector<std::string>{});
    state.pools[0].allocated.cpuMillis = 750;
    EXPECT_EQ(brokenInvariants(state, tolerances),
              std::vector<std::string>{"pool batch has 950m CPU allocated and reserved, over its 500m (900m held when "
                                       "it was lowered)"});
}

}  // namespace
}  // namespace resized::core
