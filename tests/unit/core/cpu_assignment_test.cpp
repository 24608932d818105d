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

    const auto expanded = none.expand("web", {.memoryMax = 1ull << 30, .exclusiveCpus = 2}, {});

    EXPECT_EQ(outcome(expanded), "cpu=max memory.max=1Gi cpus=0,4 exclusive-cpus=2 mems=0");
    EXPECT_EQ(expanded.granted, cpus("0,4"));
}

TEST(CpuAssignment, ASlicesMemoryIsOnItsNumaNodes)
{
    const auto topology = test::qemuTwoNodesHT();
    const CpuAssignment assignment(topology, staticPolicy(), {});

    EXPECT_EQ(outcome(assignment.expand("web", {.exclusiveCpus = 2}, {})), "cpu=max cpus=0-1 exclusive-cpus=2 mems=0");
    EXPECT_EQ(outcome(assignment.expand("web", {.exclusiveCpus = 3}, {})),
              "cpu=max cpus=0-2 exclusive-cpus=3 mems=0-1");
}

TEST(CpuAssignment, ReservedCpusAndOtherSlicesAreNeverTaken)
{
    const auto topology = test::singleSocketHT();
    const CpuAssignment assignment(topology, staticPolicy("0,4"), {{"db", {cpus("1,5"), cpus("1,5")}}});

    EXPECT_EQ(outcome(assignment.expand("web", {.exclusiveCpus = 4}, {})),
              "cpu=max cpus=2-3,6-7 exclusive-cpus=4 mems=0");
    EXPECT_EQ(outcome(assignment.expand("web", {.exclusiveCpus = 5}, {})),
              "refused: CPU manager: asked 5 exclusive CPUs, 4 are free");
    EXPECT_EQ(outcome(assignment.expand("web", {.exclusiveCpus = 2}, {}, cpus("2-3,6"))),
              "refused: CPU manager: asked 2 exclusive CPUs, 1 is free");
}

TEST(CpuAssignment, TheSharedPoolNeverBecomesEmpty)
{
    const auto topology = test::singleSocketHT();
    const CpuAssignment assignment(topology, staticPolicy(), {{"db", {cpus("0-3"), cpus("0-3")}}});

    EXPECT_EQ(outcome(assignment.expand("web", {.exclusiveCpus = 4}, {})),
              "refused: CPU manager: a slice of 4 would leave the shared pool empty (8 CPUs online, 4 in other "
              "slices)");
    EXPECT_EQ(outcome(assignment.expand("web", {.exclusiveCpus = 3}, {})),
              "cpu=max cpus=4-6 exclusive-cpus=3 mems=0");
}

TEST(CpuAssignment, AResizedSliceKeepsItsCpusAndNeverGoesBelowWhatItWasFirstGranted)
{
    const auto topology = test::singleSocketHT();
    const CpuAssignment assignment(topology, staticPolicy(), {{"web", {cpus("0-1,4-5"), cpus("0,4")}}});
    const Resources desired{.cpuMillis = kUnlimited, .allowedCpus = cpus("0-1,4-5"), .exclusiveCpus = 4};

    const auto grown = assignment.expand("web", {.exclusiveCpus = 6}, desired);
    EXPECT_EQ(outcome(grown), "cpu=max cpus=0-2,4-6 exclusive-cpus=6 mems=0");
    EXPECT_EQ(grown.granted, cpus("0,4"));
    EXPECT_EQ(outcome(assignment.expand("web", {.exclusiveCpus = 2}, desired)),
              "cpu=max cpus=0,4 exclusive-cpus=2 mems=0");
    EXPECT_EQ(outcome(assignment.expand("web", {.exclusiveCpus = 1}, desired)),
              "refused: CPU manager: asked 1 exclusive CPU, below the 2 first granted (0,4)");
}

TEST(CpuAssignment, GivingASliceBackPutsTheWorkloadOnTheSharedPool)
{
    const auto topology = test::singleSocketHT();
    const CpuAssignment assignment(topology, staticPolicy(), {{"web", {cpus("0,4"), cpus("0,4")}}});
    const Resources desired{.cpuMillis = kUnlimited, .allowedCpus = cpus("0,4"), .exclusiveCpus = 2};

    EXPECT_EQ(outcome(assignment.expand("web", {.exclusiveCpus = 0}, desired)), "cpus=all exclusive-cpus=0 mems=all");
    // Nothing to give back: nothing else changes.
    EXPECT_EQ(outcome(assignment.expand("db", {.exclusiveCpus = 0}, {})), "exclusive-cpus=0");
}

TEST(CpuAssignment, AHolderCannotTakeAQuotaOrOtherCpusWithoutGivingItsSliceBack)
{
    const auto topology = test::singleSocketHT();
    const CpuAssignment assignment(topology, staticPolicy(), {{"web", {cpus("0,4"), cpus("0,4")}}});

    EXPECT_EQ(outcome(assignment.expand("web", {.cpuMillis = 500}, {})),
              "refused: CPU manager: web holds the exclusive CPUs 0,4, without a quota and on no other CPU; "
              "ExclusiveCpus=0 gives them back first");
    EXPECT_EQ(outcome(assignment.expand("web", {.memoryMax = 1ull << 30}, {})), "memory.max=1Gi");
}

TEST(CpuAssignment, AnotherWorkloadCannotAskForASlicesCpus)
{
    const auto topology = test::singleSocketHT();
    const CpuAssignment assignment(topology, staticPolicy(), {{"web", {cpus("0,4"), cpus("0,4")}}});

    EXPECT_EQ(outcome(assignment.expand("db", {.allowedCpus = cpus("3-4")}, {})),
              "refused: CPU manager: CPU 4 is in the exclusive slice of web; the shared pool is 1-3,5-7");
    EXPECT_EQ(outcome(assignment.expand("db", {.allowedCpus = cpus("3,5")}, {})), "cpus=3,5");
}

TEST(CpuAssignment, WithoutTheStaticPolicyNoSliceIsGivenAndCpusetsAreLeftAlone)
{
    const auto topology = test::singleSocketHT();
    const CpuAssignment assignment(topology, {}, {});

    EXPECT_EQ(outcome(assignment.expand("web", {.exclusiveCpus = 1}, {})),
              "refused: CPU manager: the policy is \"none\": exclusive CPUs need [CpuManager] Policy=static");
    EXPECT_EQ(outcome(assignment.expand("web", {.allowedCpus = cpus("1")}, {})), "cpus=1");
    EXPECT_EQ(assignment.sharedCpusFor(cpus("1")), std::nullopt);
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

    EXPECT_EQ(outcome(CpuAssignment(topology, staticPolicy(), {}).expand("web", desired, desired)),
              "cpu=max cpus=2,6 exclusive-cpus=2 mems=0");
    EXPECT_EQ(outcome(CpuAssignment(topology, staticPolicy(), {{"db", {cpus("2,6"), cpus("2,6")}}})
                          .expand("web", desired, desired)),
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

}  // namespace
}  // namespace resized::core
