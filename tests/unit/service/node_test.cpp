#include "service/node.h"

#include <gtest/gtest.h>

#include <set>

#include "cgroup/cpu_topology_files.h"
#include "temp_directory.h"

// What the daemon reads of the machine at start-up, and the CPU pools it
// shows from it.
namespace resized::service {
namespace {

constexpr const char* kCgroupRoot = "/sys/fs/cgroup";

TEST(NodeInfo, TopologyIsTheMachinesOnlineCpus)
{
    const auto node = readNodeInfo(kCgroupRoot);

    const auto machine = cgroup::readCpuTopology();
    EXPECT_EQ(node.topology.cpus(), machine.cpus());
    EXPECT_EQ(node.topology.numaNodes(), machine.numaNodes());
}

TEST(NodeInfo, WithoutATopologyTheNodesCpusAreOneNumaNode)
{
    const resized::test::TempDirectory emptySysfs;

    const auto node = readNodeInfo(kCgroupRoot, emptySysfs.path());

    EXPECT_EQ(node.topology.cpus(), node.cpus);
    EXPECT_EQ(node.topology.numaNodes(), std::set<unsigned>{0});
    EXPECT_EQ(node.topology.threadsPerCore(), 1u);
}

}  // namespace
}  // namespace resized::service
