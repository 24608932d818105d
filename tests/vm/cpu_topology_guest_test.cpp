// The CPU topology as the guest's kernel describes it, read from its real
// sysfs, and the slices chosen from it. vm-test.sh boots the guest with two
// NUMA nodes of one core with two threads each (QEMU's -numa and -smp
// sockets=2,cores=1,threads=2): the shape of a small dual-socket machine
// with SMT, which no host here has.

#include <gtest/gtest.h>

#include "cgroup/cpu_topology_files.h"
#include "core/cpu_slices.h"

namespace resized {
namespace {

using core::CpuSet;

class GuestTopologyTest : public ::testing::Test {
protected:
    const core::CpuTopology topology_ = cgroup::readCpuTopology();
};

TEST_F(GuestTopologyTest, TwoNumaNodesOfOneCoreWithTwoThreadsEach)
{
    EXPECT_EQ(topology_.cpus(), (CpuSet{0, 1, 2, 3}));
    EXPECT_EQ(topology_.numaNodes(), (std::set<unsigned>{0, 1}));
    EXPECT_EQ(topology_.socketCount(), 2u);
    EXPECT_EQ(topology_.threadsPerCore(), 2u);
    EXPECT_EQ(topology_.cpusOfNumaNode(0), (CpuSet{0, 1}));
    EXPECT_EQ(topology_.cpusOfNumaNode(1), (CpuSet{2, 3}));
    EXPECT_EQ(topology_.threadSiblingsOf(2), (CpuSet{2, 3}));
}

TEST_F(GuestTopologyTest, ASliceOfANodesSizeIsThatWholeNodeAndPinsItsMemory)
{
    const auto choice = core::chooseSlice(topology_, topology_.cpus(), 2);

    ASSERT_TRUE(choice.cpus) << choice.refusal;
    EXPECT_EQ(*choice.cpus, (CpuSet{0, 1}));
    EXPECT_EQ(topology_.numaNodesOf(*choice.cpus), (std::set<unsigned>{0}));
}

// With CPU 0 taken, one CPU comes from its half-used core, so the other
// core stays whole; two CPUs are that whole core, on the other node.
TEST_F(GuestTopologyTest, SingleThreadsComeFromAPartlyUsedCore)
{
    const CpuSet free{1, 2, 3};

    EXPECT_EQ(core::chooseSlice(topology_, free, 1).cpus, (CpuSet{1}));
    const auto pair = core::chooseSlice(topology_, free, 2);
    EXPECT_EQ(pair.cpus, (CpuSet{2, 3}));
    EXPECT_EQ(topology_.numaNodesOf(pair.cpus.value_or(CpuSet{})), (std::set<unsigned>{1}));
}

TEST_F(GuestTopologyTest, FullPhysicalCpusOnlyRefusesHalfACore)
{
    const auto choice = core::chooseSlice(topology_, topology_.cpus(), 1, {.fullPhysicalCpusOnly = true});

    EXPECT_FALSE(choice.cpus);
    EXPECT_EQ(choice.refusal, "FullPhysicalCpusOnly: 1 is not a multiple of 2 threads per core");
}

// Growing keeps the slice's CPUs and takes its core's other thread first.
TEST_F(GuestTopologyTest, AGrowingSliceKeepsItsCpusAndTakesItsCoresOtherThread)
{
    const core::Slice slice{.cpus = {2}, .granted = {2}};

    const auto grown = core::resizeSlice(topology_, slice, CpuSet{0, 1, 3}, 2);

    EXPECT_EQ(grown.cpus, (CpuSet{2, 3}));
}

}  // namespace
}  // namespace resized
