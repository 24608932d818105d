#include "core/cpu_slices.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "cpu_topologies.h"

// Exclusive slices packed as kubelet's static policy packs them, and
// resized in place.
namespace resized::core {
namespace {

using test::cpus;

// The chosen CPUs as the kernel lists them, or the refusal: one string, so
// a failing test shows what was chosen instead.
std::string outcome(const SliceChoice& choice)
{
    return choice.cpus ? formatCpuSet(*choice.cpus) : "refused: " + choice.refusal;
}

struct PackingCase {
    const char* description;
    CpuTopology topology;
    const char* free;
    unsigned count;
    const char* expected;
};

// kubelet's TestTakeByTopologyNUMAPacked (cpu_assignment_test.go), whose
// expected slices hold here as they are.
TEST(ChooseSlice, PacksAsKubeletsTables)
{
    const std::vector<PackingCase> cases{
        {"take zero CPUs", test::singleSocketHT(), "0-7", 0, ""},
        {"take one CPU", test::singleSocketHT(), "0-7", 1, "0"},
        {"take one CPU, some taken: the core with one free thread", test::singleSocketHT(), "1,3,5-7", 1, "6"},
        {"take two CPUs: a whole core", test::singleSocketHT(), "0-7", 2, "0,4"},
        {"take all CPUs", test::singleSocketHT(), "0-7", 8, "0-7"},
        {"take two CPUs, only one core wholly free", test::singleSocketHT(), "0-3,6", 2, "2,6"},
        {"take a socket", test::dualSocketHT(), "0-11", 6, "0,2,4,6,8,10"},
        {"take one CPU from the socket with a core taken", test::dualSocketHT(), "1-5,7-11", 1, "2"},
        {"take 4 cores: fill the first node, then a core of the second", test::dualSocketHT(), "0-11", 8,
         "0-2,4,6-8,10"},
        {"take a socket of several NUMA nodes", test::dualSocketMultiNumaPerSocketHT(), "0-79", 40, "0-19,40-59"},
        {"take a NUMA node", test::dualSocketMultiNumaPerSocketHT(), "0-79", 20, "0-9,40-49"},
        {"take a NUMA node, one taken", test::dualSocketMultiNumaPerSocketHT(), "10-39,50-79", 20, "10-19,50-59"},
        {"take a socket and a NUMA node", test::dualSocketMultiNumaPerSocketHT(), "0-79", 60, "0-29,40-69"},
        {"take a socket and a NUMA node, a core taken", test::dualSocketMultiNumaPerSocketHT(), "1-39,41-79", 60,
         "10-39,50-79"},
        {"take 32 cores: three NUMA nodes and 2 cores of the fourth", test::dualSocketMultiNumaPerSocketHT(),
         "0-79", 64, "0-31,40-71"},
    };
    for (const auto& testCase : cases)
        EXPECT_EQ(outcome(chooseSlice(testCase.topology, cpus(testCase.free), testCase.count)), testCase.expected)
            << testCase.description;
}

TEST(ChooseSlice, TakesAWholeSocketBeforeNumaNodesOfTwoSockets)
{
    // Sockets hold two nodes each here, so a socket is the larger unit: a
    // free socket is taken whole rather than node 1 and node 2, which the
    // order of nodes alone would give.
    const auto topology = test::dualSocketMultiNumaPerSocketHT();
    EXPECT_EQ(outcome(chooseSlice(topology, cpus("10-39,50-79"), 40)), "20-39,60-79");
}

TEST(ChooseSlice, AnOddCountFillsACoreThenTakesAThreadNearby)
{
    EXPECT_EQ(outcome(chooseSlice(test::dualSocketHT(), cpus("0-11"), 3)), "0,2,6");
    // The lone thread comes from a core already partly used (0 and 2 are
    // half free), so the whole free core 3,7 stays whole.
    EXPECT_EQ(outcome(chooseSlice(test::singleSocketHT(), cpus("0-3,5,7"), 3)), "0-1,5");
}

TEST(ChooseSlice, TakesAWholeNumaNodeOfTheTwoNodeVm)
{
    const auto topology = test::qemuTwoNodesHT();
    EXPECT_EQ(outcome(chooseSlice(topology, cpus("0-3"), 2)), "0-1");
    // The node with a thread taken is not whole: node 1 is.
    EXPECT_EQ(outcome(chooseSlice(topology, cpus("1-3"), 2)), "2-3");
    // One thread goes to the core already partly used.
    EXPECT_EQ(outcome(chooseSlice(topology, cpus("1-3"), 1)), "1");
    EXPECT_EQ(outcome(chooseSlice(topology, cpus("0-3"), 3)), "0-2");
}

TEST(ChooseSlice, RefusesMoreThanAreFree)
{
    EXPECT_EQ(outcome(chooseSlice(test::singleSocketHT(), cpus("0,2,4,6"), 5)),
              "refused: asked 5 exclusive CPUs, 4 are free");
    EXPECT_EQ(outcome(chooseSlice(test::singleSocketHT(), cpus("3"), 2)),
              "refused: asked 2 exclusive CPUs, 1 is free");
    // A CPU that is not online is not free to take.
    EXPECT_EQ(outcome(chooseSlice(test::qemuTwoNodesHT(), cpus("0-3,7"), 5)),
              "refused: asked 5 exclusive CPUs, 4 are free");
}

TEST(ChooseSlice, FullPhysicalCpusOnlyTakesWholeCoresOnly)
{
    const SliceOptions wholeCores{.fullPhysicalCpusOnly = true};
    const auto topology = test::singleSocketHT();
    // Cores 1,5 and 3,7 are free whole; 0 and 2 are half taken.
    const auto free = cpus("0-3,5,7");
    EXPECT_EQ(outcome(chooseSlice(topology, free, 4, wholeCores)), "1,3,5,7");
    EXPECT_EQ(outcome(chooseSlice(topology, free, 3, wholeCores)),
              "refused: FullPhysicalCpusOnly: 3 is not a multiple of 2 threads per core");
    EXPECT_EQ(outcome(chooseSlice(topology, free, 6, wholeCores)),
              "refused: FullPhysicalCpusOnly: 6 exclusive CPUs need 3 whole free cores, 2 are free");
    // Without the option the half-taken cores are used.
    EXPECT_EQ(outcome(chooseSlice(topology, free, 6)), "0-3,5,7");
    EXPECT_EQ(outcome(chooseSlice(topology, cpus("0,4,1,3"), 4, wholeCores)),
              "refused: FullPhysicalCpusOnly: 4 exclusive CPUs need 2 whole free cores, 1 is free");
}

TEST(ChooseSlice, FullPhysicalCpusOnlyTakesAnyCountWithoutSmt)
{
    const auto topology = test::topologyOf(4, [](unsigned cpu) { return CpuLocation{.coreId = cpu}; });
    EXPECT_EQ(outcome(chooseSlice(topology, cpus("0-3"), 3, {.fullPhysicalCpusOnly = true})), "0-2");
}

TEST(ChooseSlice, NumaNodesOfASliceAreItsMemoryNodes)
{
    const auto topology = test::qemuTwoNodesHT();
    const auto withinANode = chooseSlice(topology, cpus("0-3"), 2);
    ASSERT_TRUE(withinANode.cpus);
    EXPECT_EQ(formatCpuSet(topology.numaNodesOf(*withinANode.cpus)), "0");
    const auto acrossNodes = chooseSlice(topology, cpus("0-3"), 3);
    ASSERT_TRUE(acrossNodes.cpus);
    EXPECT_EQ(formatCpuSet(topology.numaNodesOf(*acrossNodes.cpus)), "0-1");
}

TEST(ResizeSlice, GrowsOntoTheOtherThreadsOfItsCoresFirst)
{
    const auto topology = test::dualSocketHT();
    EXPECT_EQ(outcome(resizeSlice(topology, {.cpus = {0}, .granted = {0}}, cpus("1-11"), 2)), "0,6");
    const auto vm = test::qemuTwoNodesHT();
    EXPECT_EQ(outcome(resizeSlice(vm, {.cpus = {2}, .granted = {2}}, cpus("0-1,3"), 2)), "2-3");
    // Core 0 is as partly used as the slice's core 3 and would come first
    // for a new slice; the slice takes its own core's other thread.
    const auto singleSocket = test::singleSocketHT();
    const auto free = cpus("0-2,5-7");
    EXPECT_EQ(outcome(chooseSlice(singleSocket, free, 1)), "0");
    EXPECT_EQ(outcome(resizeSlice(singleSocket, {.cpus = {3}, .granted = {3}}, free, 2)), "3,7");
}

TEST(ResizeSlice, GrowsWithinItsNumaNodeBeforeOthers)
{
    const auto topology = test::dualSocketHT();
    EXPECT_EQ(outcome(resizeSlice(topology, {.cpus = {0, 6}, .granted = {0, 6}}, cpus("1-5,7-11"), 4)), "0,2,6,8");
    // Socket 0 is the slice's: full, it grows onto the next node.
    EXPECT_EQ(outcome(resizeSlice(topology, {.cpus = cpus("0,2,4,6,8,10"), .granted = {0, 6}}, cpus("1,3,5,7,9,11"),
                                  8)),
              "0-2,4,6-8,10");
    // Node 0 holds a whole free core and is the fullest node, where a new
    // slice would go; the slice on node 1 grows on node 1.
    const auto multiNuma = test::dualSocketMultiNumaPerSocketHT();
    const auto free = cpus("0,40,11-39,51-79");
    EXPECT_EQ(outcome(chooseSlice(multiNuma, free, 2)), "0,40");
    EXPECT_EQ(outcome(resizeSlice(multiNuma, {.cpus = {10, 50}, .granted = {10, 50}}, free, 4)), "10-11,50-51");
}

TEST(ResizeSlice, GrowingKeepsEveryCpuOfTheSlice)
{
    const auto topology = test::dualSocketMultiNumaPerSocketHT();
    const Slice slice{.cpus = cpus("5,9,33,77"), .granted = cpus("5,9")};
    const auto free = cpus("0-4,6-8,10-32,34-76,78-79");
    for (const unsigned count : {5u, 8u, 21u, 44u, 80u}) {
        const auto grown = resizeSlice(topology, slice, free, count);
        ASSERT_TRUE(grown.cpus) << count << ": " << grown.refusal;
        EXPECT_EQ(grown.cpus->size(), count);
        EXPECT_TRUE(isSubset(slice.cpus, *grown.cpus)) << count << ": " << formatCpuSet(*grown.cpus);
    }
}

TEST(ResizeSlice, FreeMayHoldTheSlicesOwnCpus)
{
    const auto topology = test::dualSocketHT();
    const Slice slice{.cpus = {0, 6}, .granted = {0, 6}};
    EXPECT_EQ(outcome(resizeSlice(topology, slice, cpus("0-11"), 4)),
              outcome(resizeSlice(topology, slice, cpus("1-5,7-11"), 4)));
}

TEST(ResizeSlice, RefusesToGrowBeyondWhatIsFree)
{
    EXPECT_EQ(outcome(resizeSlice(test::dualSocketHT(), {.cpus = {0, 6}, .granted = {0, 6}}, cpus("1,7"), 5)),
              "refused: asked 3 more exclusive CPUs, 2 are free");
}

TEST(ResizeSlice, FullPhysicalCpusOnlyGrowsByWholeFreeCores)
{
    const SliceOptions wholeCores{.fullPhysicalCpusOnly = true};
    const auto topology = test::dualSocketHT();
    const Slice slice{.cpus = {0, 6}, .granted = {0, 6}};
    // Socket 0 has only half-taken cores left (8 and 10 are another's).
    const auto free = cpus("1-5,7,9,11");
    EXPECT_EQ(outcome(resizeSlice(topology, slice, free, 4)), "0,2,4,6");
    EXPECT_EQ(outcome(resizeSlice(topology, slice, free, 4, wholeCores)), "0-1,6-7");
    EXPECT_EQ(outcome(resizeSlice(topology, slice, cpus("1-5,7"), 6, wholeCores)),
              "refused: FullPhysicalCpusOnly: 4 more exclusive CPUs need 2 whole free cores, 1 is free");
    EXPECT_EQ(outcome(resizeSlice(topology, slice, free, 5, wholeCores)),
              "refused: FullPhysicalCpusOnly: 5 is not a multiple of 2 threads per core");
    EXPECT_EQ(outcome(resizeSlice(topology, {.cpus = {0, 6, 2}, .granted = {0, 6}}, free, 4, wholeCores)),
              "refused: FullPhysicalCpusOnly: the slice holds 3 CPUs, not whole cores of 2 threads");
}

TEST(ResizeSlice, ShrinksFromTheNumaNodeWhereItHoldsFewest)
{
    const auto topology = test::dualSocketHT();
    EXPECT_EQ(outcome(resizeSlice(topology, {.cpus = cpus("0-2,6,8"), .granted = {0, 6}}, {}, 4)), "0,2,6,8");
    const auto multiNuma = test::dualSocketMultiNumaPerSocketHT();
    EXPECT_EQ(outcome(resizeSlice(multiNuma, {.cpus = cpus("0-3,10,40-43,50"), .granted = {0, 40}}, {}, 8)),
              "0-3,40-43");
}

TEST(ResizeSlice, ShrinkingGivesBackACoresThreadsTogether)
{
    const auto topology = test::dualSocketHT();
    // Both nodes hold two of the slice's CPUs: the higher node goes, whole.
    EXPECT_EQ(outcome(resizeSlice(topology, {.cpus = cpus("0-1,6-7"), .granted = {0}}, {}, 2)), "0,6");
    // The half-held core goes first, so the slice keeps whole cores.
    EXPECT_EQ(outcome(resizeSlice(topology, {.cpus = cpus("0,2,4,6,8"), .granted = {0}}, {}, 4)), "0,2,6,8");
}

TEST(ResizeSlice, NeverShrinksBelowTheGrantedCpus)
{
    const auto topology = test::dualSocketHT();
    const Slice slice{.cpus = cpus("0-2,6,8"), .granted = {2, 8}};
    EXPECT_EQ(outcome(resizeSlice(topology, slice, {}, 2)), "2,8");
    EXPECT_EQ(outcome(resizeSlice(topology, slice, {}, 3)), "0,2,8");
    EXPECT_EQ(outcome(resizeSlice(topology, slice, {}, 1)),
              "refused: asked 1 exclusive CPU, below the 2 first granted (2,8)");
    EXPECT_EQ(outcome(resizeSlice(topology, slice, {}, 0)),
              "refused: asked 0 exclusive CPUs, below the 2 first granted (2,8)");
}

TEST(ResizeSlice, FullPhysicalCpusOnlyGivesBackWholeCores)
{
    const SliceOptions wholeCores{.fullPhysicalCpusOnly = true};
    const auto topology = test::dualSocketHT();
    EXPECT_EQ(outcome(resizeSlice(topology, {.cpus = cpus("0-1,6-7"), .granted = {0, 6}}, {}, 2, wholeCores)),
              "0,6");
    // The granted CPUs split both cores: none can go whole.
    EXPECT_EQ(outcome(resizeSlice(topology, {.cpus = cpus("0-1,6-7"), .granted = {0, 1}}, {}, 2, wholeCores)),
              "refused: FullPhysicalCpusOnly: giving back 2 CPUs needs 1 whole core beyond the first granted, "
              "the slice holds 0");
}

TEST(ResizeSlice, TheSameCountKeepsTheSlice)
{
    const Slice slice{.cpus = {0, 2, 6}, .granted = {0}};
    EXPECT_EQ(outcome(resizeSlice(test::dualSocketHT(), slice, {}, 3, {.fullPhysicalCpusOnly = true})), "0,2,6");
}

TEST(ResizeSlice, RefusesASliceWithoutItsGrantedCpus)
{
    EXPECT_THROW(resizeSlice(test::dualSocketHT(), {.cpus = {0}, .granted = {0, 6}}, {}, 1), std::invalid_argument);
}

}  // namespace
}  // namespace resized::core
