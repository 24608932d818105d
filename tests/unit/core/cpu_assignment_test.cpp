#include "core/cpu_assignment.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <string_view>

#include "cpu_topologies.h"

// The static policy's bookkeeping: what ExclusiveCpus becomes, what stays
// shared, and where a container without a slice runs.
namespace resized::core {
namespace {

using test::cpus;

CpuManagerSettings staticPolicy(std::string_view reserved = "")
{
    return {.policy = CpuManagerPolicy::Static, .reserved = cpus(reserved), .slices = {}};
}

CpuManagerSettings podScope()
{
    CpuManagerSettings settings = staticPolicy();
    settings.scope = TopologyScope::Pod;
    return settings;
}

// Members of the pod "shop".
SliceHolder member(const std::string& name) { return {name, WorkloadKind::Container, "shop"}; }
const SliceHolder kShop{"pod:shop", WorkloadKind::Pod};

// The request as expanded, or the refusal: one string, so that a failing
// test shows what came out instead.
std::string outcome(const SliceRequest& expanded)
{
    return expanded.refusal ? "refused: " + *expanded.refusal : describe(expanded.request);
}

TEST(CpuAssignment, ASliceIsItsCpusWithoutAQuotaAndRemembersWhatItWasGranted)
{
    const auto topology = test::singleSocketHT();
    const CpuAssignment none(topology, staticPolicy(), {});

    const auto expanded = none.expand({"web"}, {.memoryMax = 1ull << 30, .exclusiveCpus = 2}, {});

    EXPECT_EQ(outcome(expanded), "cpu=max memory.max=1Gi cpus=0,4 exclusive-cpus=2 mems=0");
    EXPECT_EQ(expanded.granted, cpus("0,4"));
}

TEST(CpuAssignment, ASlicesMemoryIsOnItsNumaNodes)
{
    const auto topology = test::qemuTwoNodesHT();
    const CpuAssignment assignment(topology, staticPolicy(), {});

    EXPECT_EQ(outcome(assignment.expand({"web"}, {.exclusiveCpus = 2}, {})),
              "cpu=max cpus=0-1 exclusive-cpus=2 mems=0");
    EXPECT_EQ(outcome(assignment.expand({"web"}, {.exclusiveCpus = 3}, {})),
              "cpu=max cpus=0-2 exclusive-cpus=3 mems=0-1");
}

TEST(CpuAssignment, ReservedCpusAndOtherSlicesAreNeverTaken)
{
    const auto topology = test::singleSocketHT();
    const CpuAssignment assignment(topology, staticPolicy("0,4"), {{"db", {cpus("1,5"), cpus("1,5")}}});

    EXPECT_EQ(outcome(assignment.expand({"web"}, {.exclusiveCpus = 4}, {})),
              "cpu=max cpus=2-3,6-7 exclusive-cpus=4 mems=0");
    EXPECT_EQ(outcome(assignment.expand({"web"}, {.exclusiveCpus = 5}, {})),
              "refused: CPU manager: asked 5 exclusive CPUs, 4 are free");
    EXPECT_EQ(outcome(assignment.expand({"web"}, {.exclusiveCpus = 2}, {}, cpus("2-3,6"))),
              "refused: CPU manager: asked 2 exclusive CPUs, 1 is free");
}

TEST(CpuAssignment, TheSharedPoolNeverBecomesEmpty)
{
    const auto topology = test::singleSocketHT();
    const CpuAssignment assignment(topology, staticPolicy(), {{"db", {cpus("0-3"), cpus("0-3")}}});

    EXPECT_EQ(outcome(assignment.expand({"web"}, {.exclusiveCpus = 4}, {})),
              "refused: CPU manager: a slice of 4 would leave the shared pool empty (8 CPUs online, 4 in other "
              "slices)");
    EXPECT_EQ(outcome(assignment.expand({"web"}, {.exclusiveCpus = 3}, {})),
              "cpu=max cpus=4-6 exclusive-cpus=3 mems=0");
}

TEST(CpuAssignment, AResizedSliceKeepsItsCpusAndNeverGoesBelowWhatItWasFirstGranted)
{
    const auto topology = test::singleSocketHT();
    const CpuAssignment assignment(topology, staticPolicy(), {{"web", {cpus("0-1,4-5"), cpus("0,4")}}});
    const Resources desired{.cpuMillis = kUnlimited, .allowedCpus = cpus("0-1,4-5"), .exclusiveCpus = 4};

    const auto grown = assignment.expand({"web"}, {.exclusiveCpus = 6}, desired);
    EXPECT_EQ(outcome(grown), "cpu=max cpus=0-2,4-6 exclusive-cpus=6 mems=0");
    EXPECT_EQ(grown.granted, cpus("0,4"));
    EXPECT_EQ(outcome(assignment.expand({"web"}, {.exclusiveCpus = 2}, desired)),
              "cpu=max cpus=0,4 exclusive-cpus=2 mems=0");
    EXPECT_EQ(outcome(assignment.expand({"web"}, {.exclusiveCpus = 1}, desired)),
              "refused: CPU manager: asked 1 exclusive CPU, below the 2 first granted (0,4)");
}

TEST(CpuAssignment, GivingASliceBackPutsTheWorkloadOnTheSharedPool)
{
    const auto topology = test::singleSocketHT();
    const CpuAssignment assignment(topology, staticPolicy(), {{"web", {cpus("0,4"), cpus("0,4")}}});
    const Resources desired{.cpuMillis = kUnlimited, .allowedCpus = cpus("0,4"), .exclusiveCpus = 2};

    EXPECT_EQ(outcome(assignment.expand({"web"}, {.exclusiveCpus = 0}, desired)), "cpus=all exclusive-cpus=0 mems=all");
    // Nothing to give back: nothing else changes.
    EXPECT_EQ(outcome(assignment.expand({"db"}, {.exclusiveCpus = 0}, {})), "exclusive-cpus=0");
}

TEST(CpuAssignment, AHolderCannotTakeAQuotaOrOtherCpusWithoutGivingItsSliceBack)
{
    const auto topology = test::singleSocketHT();
    const CpuAssignment assignment(topology, staticPolicy(), {{"web", {cpus("0,4"), cpus("0,4")}}});

    EXPECT_EQ(outcome(assignment.expand({"web"}, {.cpuMillis = 500}, {})),
              "refused: CPU manager: web holds the exclusive CPUs 0,4, without a quota and on no other CPU; "
              "ExclusiveCpus=0 gives them back first");
    EXPECT_EQ(outcome(assignment.expand({"web"}, {.memoryMax = 1ull << 30}, {})), "memory.max=1Gi");
}

TEST(CpuAssignment, AnotherWorkloadCannotAskForASlicesCpus)
{
    const auto topology = test::singleSocketHT();
    const CpuAssignment assignment(topology, staticPolicy(), {{"web", {cpus("0,4"), cpus("0,4")}}});

    EXPECT_EQ(outcome(assignment.expand({"db"}, {.allowedCpus = cpus("3-4")}, {})),
              "refused: CPU manager: CPU 4 is in the exclusive slice of web; the shared pool is 1-3,5-7");
    EXPECT_EQ(outcome(assignment.expand({"db"}, {.allowedCpus = cpus("3,5")}, {})), "cpus=3,5");
}

TEST(CpuAssignment, WithoutTheStaticPolicyNoSliceIsGivenAndCpusetsAreLeftAlone)
{
    const auto topology = test::singleSocketHT();
    const CpuAssignment assignment(topology, {}, {});

    EXPECT_EQ(outcome(assignment.expand({"web"}, {.exclusiveCpus = 1}, {})),
              "refused: CPU manager: the policy is \"none\": exclusive CPUs need [CpuManager] Policy=static");
    EXPECT_EQ(outcome(assignment.expand({"web"}, {.allowedCpus = cpus("1")}, {})), "cpus=1");
    EXPECT_EQ(assignment.sharedCpusFor(cpus("1")), cpus("1"));
    EXPECT_EQ(assignment.sharedCpusFor(std::nullopt), CpuSet{});
}

TEST(CpuAssignment, AWorkloadWithoutASliceRunsOnWhatItAskedLessTheSlices)
{
    const auto topology = test::singleSocketHT();
    const CpuAssignment noSlices(topology, staticPolicy(), {});
    const CpuAssignment withSlice(topology, staticPolicy(), {{"web", {cpus("0,4"), cpus("0,4")}}});

    EXPECT_EQ(noSlices.sharedCpusFor(std::nullopt), CpuSet{});
    EXPECT_EQ(noSlices.sharedCpusFor(cpus("0-1")), cpus("0-1"));
    EXPECT_EQ(withSlice.shared(), cpus("1-3,5-7"));
    EXPECT_EQ(withSlice.exclusive(), cpus("0,4"));
    EXPECT_EQ(withSlice.sharedCpusFor(std::nullopt), cpus("1-3,5-7"));
    EXPECT_EQ(withSlice.sharedCpusFor(CpuSet{}), cpus("1-3,5-7"));
    EXPECT_EQ(withSlice.sharedCpusFor(cpus("0-1")), cpus("1"));
    EXPECT_EQ(withSlice.sharedCpusFor(cpus("0,4")), cpus("1-3,5-7"));
}

TEST(CpuAssignment, ASliceReleasedAndAdmittedAgainGetsItsOldCpusWhenTheyAreFree)
{
    const auto topology = test::singleSocketHT();
    const Resources desired{.cpuMillis = kUnlimited, .allowedCpus = cpus("2,6"), .exclusiveCpus = 2};

    EXPECT_EQ(outcome(CpuAssignment(topology, staticPolicy(), {}).expand({"web"}, desired, desired)),
              "cpu=max cpus=2,6 exclusive-cpus=2 mems=0");
    EXPECT_EQ(outcome(CpuAssignment(topology, staticPolicy(), {{"db", {cpus("2,6"), cpus("2,6")}}})
                          .expand({"web"}, desired, desired)),
              "cpu=max cpus=0,4 exclusive-cpus=2 mems=0");
}

TEST(CpuAssignment, ActualHoldsTheSliceWhileTheCgroupRunsOnIt)
{
    const Resources desired{.cpuMillis = kUnlimited, .allowedCpus = cpus("2,6"), .exclusiveCpus = 2};

    EXPECT_EQ(withExclusiveCpusHeld({.allowedCpus = cpus("2,6")}, desired).exclusiveCpus, 2u);
    EXPECT_EQ(withExclusiveCpusHeld({.allowedCpus = cpus("2")}, desired).exclusiveCpus, 0u);
    EXPECT_EQ(withExclusiveCpusHeld({.allowedCpus = cpus("2,6")}, {}).exclusiveCpus, std::nullopt);
}

TEST(CpuManagerPolicy, ParsesItsTwoNames)
{
    EXPECT_EQ(parseCpuManagerPolicy("static"), CpuManagerPolicy::Static);
    EXPECT_EQ(parseCpuManagerPolicy("none"), CpuManagerPolicy::None);
    EXPECT_EQ(parseCpuManagerPolicy("Static"), std::nullopt);
    EXPECT_EQ(toString(CpuManagerPolicy::Static), "static");
}

TEST(CpuAssignmentPodScope, APodsBubbleIsItsNumaNodeAndItsMembersSlicesComeOutOfIt)
{
    const auto topology = test::qemuTwoNodesHT();
    const CpuAssignment empty(topology, podScope(), {});
    EXPECT_EQ(outcome(empty.expand(kShop, {.exclusiveCpus = 2}, {})), "cpu=max cpus=0-1 exclusive-cpus=2 mems=0");

    const CpuAssignment withBubble(topology, podScope(), {{"pod:shop", {cpus("0-1"), cpus("0-1")}}});
    EXPECT_EQ(outcome(withBubble.expand(member("cart"), {.exclusiveCpus = 1}, {})),
              "cpu=max cpus=0 exclusive-cpus=1 mems=0");
    // Outside the pod, slices come from what the bubble left.
    EXPECT_EQ(outcome(withBubble.expand({"web"}, {.exclusiveCpus = 1}, {})),
              "cpu=max cpus=2 exclusive-cpus=1 mems=1");
    EXPECT_EQ(withBubble.shared(), cpus("2-3"));
    EXPECT_EQ(withBubble.podShared("shop"), cpus("0-1"));
}

TEST(CpuAssignmentPodScope, NeitherTheNodesNorThePodsSharedPoolIsEverEmptied)
{
    const auto topology = test::qemuTwoNodesHT();
    const CpuAssignment assignment(topology, podScope(),
                                   {{"pod:shop", {cpus("0-1"), cpus("0-1")}},
                                    {"cart", {cpus("0"), cpus("0"), "shop"}}});

    EXPECT_EQ(outcome(assignment.expand(member("till"), {.exclusiveCpus = 1}, {})),
              "refused: CPU manager: a slice of 1 would leave the shared pool of pod shop empty (its bubble 0-1, 1 "
              "CPUs in other members' slices): its infra container and other members run there");
    EXPECT_EQ(outcome(assignment.expand(member("cart"), {.exclusiveCpus = 2}, {})),
              "refused: CPU manager: a slice of 2 would leave the shared pool of pod shop empty (its bubble 0-1, 0 "
              "CPUs in other members' slices): its infra container and other members run there");
    EXPECT_EQ(outcome(assignment.expand(kShop, {.exclusiveCpus = 4}, {})),
              "refused: CPU manager: a slice of 4 would leave the shared pool empty (4 CPUs online, 0 in other "
              "slices)");
    // Members run on the bubble less their slices; the rest of the node
    // off the bubble.
    EXPECT_EQ(assignment.sharedCpusFor(std::nullopt, "shop"), cpus("1"));
    EXPECT_EQ(assignment.sharedCpusFor(cpus("0-3"), "shop"), cpus("1"));
    EXPECT_EQ(assignment.sharedCpusFor(cpus("0-3")), cpus("2-3"));
    EXPECT_EQ(assignment.sharedCpusFor(cpus("0-3"), "other"), cpus("2-3"));
    EXPECT_EQ(outcome(assignment.expand(member("till"), {.allowedCpus = cpus("1-2")}, {})),
              "refused: CPU manager: CPU 2 is not in the shared pool of pod shop (1), where its members run");
    EXPECT_EQ(outcome(assignment.expand({"web"}, {.allowedCpus = cpus("0-2")}, {})),
              "refused: CPU manager: CPUs 0-1 are in the exclusive slice of pod:shop; the shared pool is 2-3");
}

TEST(CpuAssignmentPodScope, ABubbleGrowsAndShrinksAroundItsMembersSlices)
{
    const auto topology = test::dualSocketHT();
    // Socket 0's cores 0, 2 and 4 (CPUs 0, 6, 2, 8, 4, 10); db's slice
    // holds 6, inside the bubble.
    const CpuAssignment assignment(topology, podScope(),
                                   {{"pod:shop", {cpus("0,2,6,8"), cpus("0,6")}},
                                    {"db", {cpus("8"), cpus("8"), "shop"}}});

    EXPECT_EQ(outcome(assignment.expand(kShop, {.exclusiveCpus = 6}, {})),
              "cpu=max cpus=0,2,4,6,8,10 exclusive-cpus=6 mems=0");
    // 0 and 6 were granted first, 8 is db's: 2 goes.
    EXPECT_EQ(outcome(assignment.expand(kShop, {.exclusiveCpus = 3}, {})),
              "cpu=max cpus=0,6,8 exclusive-cpus=3 mems=0");
    EXPECT_EQ(outcome(assignment.expand(kShop, {.exclusiveCpus = 0}, {})),
              "refused: CPU manager: members of pod shop hold slices of its bubble (db); ExclusiveCpus=0 on them "
              "gives them back first");
    const CpuAssignment withoutMembers(topology, podScope(), {{"pod:shop", {cpus("0,6"), cpus("0,6")}}});
    EXPECT_EQ(outcome(withoutMembers.expand(kShop, {.exclusiveCpus = 0}, {})), "cpus=all exclusive-cpus=0 mems=all");
}

TEST(CpuAssignmentPodScope, ABubbleIsForPodsWithoutSlicesFromTheNodeAndOnlyWithThePodScope)
{
    const auto topology = test::qemuTwoNodesHT();
    const std::map<std::string, Slice> memberOnTheNode{{"cart", {cpus("3"), cpus("3"), "shop"}}};

    EXPECT_EQ(outcome(CpuAssignment(topology, podScope(), memberOnTheNode).expand(kShop, {.exclusiveCpus = 2}, {})),
              "refused: CPU manager: members of pod shop hold slices from the node (cart), which a bubble would not "
              "hold; ExclusiveCpus=0 on them gives them back first");
    EXPECT_EQ(outcome(CpuAssignment(topology, staticPolicy(), {}).expand(kShop, {.exclusiveCpus = 2}, {})),
              "refused: CPU manager: a pod's exclusive CPUs are a bubble for its members, which needs [CpuManager] "
              "TopologyScope=pod; with TopologyScope=container its members take slices themselves");
    EXPECT_EQ(outcome(CpuAssignment(topology, podScope(), {})
                          .expand({"unit:nginx.service", WorkloadKind::Unit}, {.exclusiveCpus = 1}, {})),
              "refused: CPU manager: exclusive CPUs are given to containers and pods only");
    // With the container scope, a member's slice comes from the node.
    EXPECT_EQ(outcome(CpuAssignment(topology, staticPolicy(), {{"pod:shop", {cpus("0-1"), cpus("0-1")}}})
                          .expand(member("cart"), {.exclusiveCpus = 1}, {})),
              "cpu=max cpus=2 exclusive-cpus=1 mems=1");
}

TEST(TopologyScope, ParsesItsTwoNames)
{
    EXPECT_EQ(parseTopologyScope("pod"), TopologyScope::Pod);
    EXPECT_EQ(parseTopologyScope("container"), TopologyScope::Container);
    EXPECT_EQ(parseTopologyScope("Pod"), std::nullopt);
    EXPECT_EQ(toString(TopologyScope::Pod), "pod");
}

}  // namespace
}  // namespace resized::core
