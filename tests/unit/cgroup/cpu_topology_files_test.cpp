#include "cgroup/cpu_topology_files.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "temp_directory.h"

namespace resized::cgroup {
namespace {

unsigned readNumber(const std::filesystem::path& path)
{
    return static_cast<unsigned>(std::stoul(test::readText(path)));
}

// This host's own sysfs: whatever it has, the model must say what its files
// say.
TEST(ReadCpuTopology, AgreesWithThisHostsSysfs)
{
    const std::filesystem::path cpuRoot = "/sys/devices/system/cpu";
    const auto topology = readCpuTopology();

    const auto online = core::parseCpuSet(test::readText(cpuRoot / "online"));
    ASSERT_TRUE(online);
    ASSERT_FALSE(online->empty());
    EXPECT_EQ(topology.cpus(), *online);
    for (const unsigned cpu : *online) {
        const auto directory = cpuRoot / ("cpu" + std::to_string(cpu)) / "topology";
        const auto& location = topology.locationOf(cpu);
        EXPECT_EQ(location.socket, readNumber(directory / "physical_package_id")) << "CPU " << cpu;
        EXPECT_EQ(location.coreId, readNumber(directory / "core_id")) << "CPU " << cpu;
        // The kernel's own list of a CPU's SMT siblings is the core the model
        // groups by socket and core_id.
        const auto siblings = core::parseCpuSet(test::readText(directory / "thread_siblings_list"));
        ASSERT_TRUE(siblings);
        EXPECT_EQ(topology.cpusOfCore(topology.coreOf(cpu)), *siblings) << "CPU " << cpu;
    }

    const std::filesystem::path nodeRoot = "/sys/devices/system/node";
    if (!std::filesystem::exists(nodeRoot)) {
        EXPECT_EQ(topology.numaNodes(), std::set<unsigned>{0});
        return;
    }
    core::CpuSet listedByNodes;
    for (const unsigned node : topology.numaNodes()) {
        const auto listed = core::parseCpuSet(test::readText(nodeRoot / ("node" + std::to_string(node)) / "cpulist"));
        ASSERT_TRUE(listed) << "node " << node;
        EXPECT_EQ(topology.cpusOfNumaNode(node), *listed) << "node " << node;
        listedByNodes.insert(listed->begin(), listed->end());
    }
    EXPECT_EQ(listedByNodes, *online);
}

// A sysfs tree written into a temporary directory, which goes with the
// fixture when each test is torn down.
class FakeSysfs : public ::testing::Test {
protected:
    const std::filesystem::path& root() const { return root_.path(); }

    void writeCpu(unsigned cpu, std::string_view socket, std::string_view coreId) const
    {
        const auto directory = root() / "devices/system/cpu" / ("cpu" + std::to_string(cpu)) / "topology";
        test::writeText(directory / "physical_package_id", std::string(socket) + "\n");
        test::writeText(directory / "core_id", std::string(coreId) + "\n");
    }

    void writeOnline(std::string_view cpus) const
    {
        test::writeText(root() / "devices/system/cpu/online", std::string(cpus) + "\n");
    }

    void writeNode(unsigned node, std::string_view cpus) const
    {
        test::writeText(root() / "devices/system/node" / ("node" + std::to_string(node)) / "cpulist",
                        std::string(cpus) + "\n");
    }

    // QEMU's -smp 4,sockets=2,cores=1,threads=2 with a NUMA node per socket.
    void writeQemuTwoNodesHT() const
    {
        writeOnline("0-3");
        for (unsigned cpu = 0; cpu < 4; ++cpu)
            writeCpu(cpu, std::to_string(cpu / 2), "0");
        writeNode(0, "0-1");
        writeNode(1, "2-3");
        // Files beside the node directories that are no node.
        test::writeText(root() / "devices/system/node/online", "0-1\n");
        test::writeText(root() / "devices/system/node/possible", "0-1\n");
    }

    std::string errorOf() const
    {
        try {
            readCpuTopology(root());
        } catch (const std::runtime_error& error) {
            return error.what();
        }
        return "";
    }

private:
    test::TempDirectory root_;
};

TEST_F(FakeSysfs, ReadsTwoNodesOfOneCoreWithTwoThreads)
{
    writeQemuTwoNodesHT();
    const auto topology = readCpuTopology(root());
    EXPECT_EQ(topology.cpus(), (core::CpuSet{0, 1, 2, 3}));
    EXPECT_EQ(topology.locationOf(3), (core::CpuLocation{.socket = 1, .coreId = 0, .numaNode = 1}));
    EXPECT_EQ(topology.cpusOfCore({.socket = 0, .coreId = 0}), (core::CpuSet{0, 1}));
    EXPECT_EQ(topology.cpusOfCore({.socket = 1, .coreId = 0}), (core::CpuSet{2, 3}));
    EXPECT_EQ(topology.cpusOfNumaNode(1), (core::CpuSet{2, 3}));
    EXPECT_EQ(topology.threadsPerCore(), 2u);
    EXPECT_EQ(topology.numaNodeCount(), 2u);
    EXPECT_EQ(topology.socketCount(), 2u);
}

TEST_F(FakeSysfs, SkipsOfflineCpus)
{
    writeQemuTwoNodesHT();
    writeOnline("0-1,3");
    std::filesystem::remove_all(root() / "devices/system/cpu/cpu2");
    const auto topology = readCpuTopology(root());
    EXPECT_EQ(topology.cpus(), (core::CpuSet{0, 1, 3}));
    EXPECT_EQ(topology.cpusOfCore({.socket = 1, .coreId = 0}), (core::CpuSet{3}));
    EXPECT_EQ(topology.cpusOfNumaNode(1), (core::CpuSet{3}));
}

TEST_F(FakeSysfs, WithoutNodeDirectoriesAllCpusAreOnNodeZero)
{
    writeOnline("0-1");
    writeCpu(0, "0", "0");
    writeCpu(1, "0", "1");
    const auto topology = readCpuTopology(root());
    EXPECT_EQ(topology.numaNodes(), std::set<unsigned>{0});
    EXPECT_EQ(topology.cpusOfNumaNode(0), (core::CpuSet{0, 1}));
    EXPECT_EQ(topology.threadsPerCore(), 1u);
}

TEST_F(FakeSysfs, AnUnknownPackageCountsAsPackageZero)
{
    writeOnline("0");
    writeCpu(0, "-1", "0");
    EXPECT_EQ(readCpuTopology(root()).locationOf(0).socket, 0u);
}

TEST_F(FakeSysfs, NamesTheFileItCannotRead)
{
    writeQemuTwoNodesHT();
    std::filesystem::remove(root() / "devices/system/cpu/cpu2/topology/core_id");
    const auto error = errorOf();
    EXPECT_NE(error.find("cpu2/topology/core_id"), std::string::npos) << error;
}

TEST_F(FakeSysfs, NamesTheFileItCannotParse)
{
    writeQemuTwoNodesHT();
    writeNode(1, "2-x");
    const auto badList = errorOf();
    EXPECT_NE(badList.find("node1/cpulist holds \"2-x\", which is no CPU list"), std::string::npos) << badList;
    writeNode(1, "2-3");
    writeCpu(1, "zero", "0");
    const auto badNumber = errorOf();
    EXPECT_NE(badNumber.find("cpu1/topology/physical_package_id holds \"zero\", which is no number"),
              std::string::npos)
        << badNumber;
}

TEST_F(FakeSysfs, RefusesAnOnlineCpuNoNodeLists)
{
    writeQemuTwoNodesHT();
    writeNode(1, "2");
    const auto error = errorOf();
    EXPECT_NE(error.find("CPU 3 is online but no"), std::string::npos) << error;
}

TEST_F(FakeSysfs, NamesAMissingOnlineList)
{
    const auto error = errorOf();
    EXPECT_NE(error.find("cannot open " + (root() / "devices/system/cpu/online").string()), std::string::npos)
        << error;
}

}  // namespace
}  // namespace resized::cgroup
