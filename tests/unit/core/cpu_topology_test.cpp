#include "core/cpu_topology.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include "cpu_topologies.h"

// The topology model the CPU manager packs slices by.
namespace resized::core {
namespace {

TEST(CpuTopology, GroupsTheDualSocketMachineBySocketCoreAndNode)
{
    const auto topology = test::dualSocketHT();
    EXPECT_EQ(topology.cpus(), (CpuSet{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}));
    EXPECT_EQ(topology.cpusOfSocket(0), (CpuSet{0, 2, 4, 6, 8, 10}));
    EXPECT_EQ(topology.cpusOfSocket(1), (CpuSet{1, 3, 5, 7, 9, 11}));
    EXPECT_EQ(topology.cpusOfNumaNode(1), (CpuSet{1, 3, 5, 7, 9, 11}));
    EXPECT_EQ(topology.cpusOfCore({.socket = 0, .coreId = 2}), (CpuSet{2, 8}));
    EXPECT_EQ(topology.coreOf(9), (PhysicalCore{.socket = 1, .coreId = 3}));
    EXPECT_EQ(topology.threadSiblingsOf(9), (CpuSet{3, 9}));
    EXPECT_EQ(topology.cores().size(), 6u);
    EXPECT_EQ(topology.sockets(), (std::set<unsigned>{0, 1}));
    EXPECT_EQ(topology.numaNodes(), (std::set<unsigned>{0, 1}));
    EXPECT_EQ(topology.threadsPerCore(), 2u);
}

TEST(CpuTopology, TellsCoresOfTheSameNumberOnTwoSocketsApart)
{
    const auto topology = test::qemuTwoNodesHT();
    EXPECT_EQ(topology.cores(), (std::set<PhysicalCore>{{.socket = 0, .coreId = 0}, {.socket = 1, .coreId = 0}}));
    EXPECT_EQ(topology.cpusOfCore({.socket = 0, .coreId = 0}), (CpuSet{0, 1}));
    EXPECT_EQ(topology.cpusOfCore({.socket = 1, .coreId = 0}), (CpuSet{2, 3}));
    EXPECT_EQ(topology.threadsPerCore(), 2u);
    EXPECT_EQ(topology.numaNodeCount(), 2u);
    EXPECT_EQ(topology.socketCount(), 2u);
}

TEST(CpuTopology, CountsSeveralNumaNodesPerSocket)
{
    const auto topology = test::dualSocketMultiNumaPerSocketHT();
    EXPECT_EQ(topology.numaNodeCount(), 4u);
    EXPECT_EQ(topology.socketCount(), 2u);
    EXPECT_EQ(formatCpuSet(topology.cpusOfNumaNode(2)), "20-29,60-69");
    EXPECT_EQ(formatCpuSet(topology.cpusOfSocket(0)), "0-19,40-59");
    EXPECT_EQ(topology.cores().size(), 40u);
}

TEST(CpuTopology, WithoutSmtACoreHasOneThread)
{
    const auto topology = test::topologyOf(3, [](unsigned cpu) { return CpuLocation{.coreId = cpu}; });
    EXPECT_EQ(topology.threadsPerCore(), 1u);
    EXPECT_EQ(topology.numaNodeCount(), 1u);
}

TEST(CpuTopology, ACoreWithAThreadOfflineDoesNotLowerThreadsPerCore)
{
    auto locations = std::map<unsigned, CpuLocation>{{0, {.coreId = 0}}, {1, {.coreId = 1}}, {4, {.coreId = 0}}};
    const CpuTopology topology(std::move(locations));
    EXPECT_EQ(topology.threadsPerCore(), 2u);
    EXPECT_EQ(topology.cpusOfCore({.socket = 0, .coreId = 1}), (CpuSet{1}));
}

TEST(CpuTopology, UnknownPlacesHoldNoCpus)
{
    const auto topology = test::singleSocketHT();
    EXPECT_EQ(topology.cpusOfNumaNode(1), CpuSet{});
    EXPECT_EQ(topology.cpusOfSocket(3), CpuSet{});
    EXPECT_EQ(topology.cpusOfCore({.socket = 1, .coreId = 0}), CpuSet{});
    EXPECT_THROW(topology.locationOf(8), std::out_of_range);
    EXPECT_THROW(topology.threadSiblingsOf(8), std::out_of_range);
}

TEST(CpuTopology, NumaNodesOfASliceAreWhatItsMemoryIsPinnedTo)
{
    const auto topology = test::dualSocketMultiNumaPerSocketHT();
    EXPECT_EQ(topology.numaNodesOf({3, 43}), (std::set<unsigned>{0}));
    EXPECT_EQ(topology.numaNodesOf({9, 10, 75}), (std::set<unsigned>{0, 1, 3}));
    EXPECT_EQ(formatCpuSet(topology.numaNodesOf({9, 10, 75})), "0-1,3");
    EXPECT_EQ(topology.numaNodesOf({}), std::set<unsigned>{});
    EXPECT_EQ(topology.numaNodesOf({200}), std::set<unsigned>{});
}

}  // namespace
}  // namespace resized::core
