#include "config.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

using namespace resized;

namespace {

class ConfigTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        directory_ = std::filesystem::temp_directory_path() /
                     ("resized-config-test-" + std::to_string(getpid()) + "-" +
                      ::testing::UnitTest::GetInstance()->current_test_info()->name());
        std::filesystem::create_directories(directory_);
    }
    void TearDown() override { std::filesystem::remove_all(directory_); }

    std::filesystem::path file() const { return directory_ / "resized.conf"; }
    void write(const std::filesystem::path& path, const std::string& text)
    {
        std::filesystem::create_directories(path.parent_path());
        std::ofstream(path) << text;
    }

    std::filesystem::path directory_;
};

}  // namespace

TEST_F(ConfigTest, AMissingFileMeansTheDefaults)
{
    const auto settings = loadConfig(file(), {});
    EXPECT_EQ(settings.systemReserve.memory, 256ull << 20);
    EXPECT_EQ(settings.syncInterval, std::chrono::seconds(30));
    EXPECT_EQ(settings.adminGroup, "resized");
}

TEST_F(ConfigTest, ReadsEveryKeyInPeoplesUnits)
{
    write(file(), "[Node]\nReservedCPU=1.5\nReservedMemory=1Gi\n"
                  "[Sync]\nIntervalSec=2min\nRetryAttempts=7\nRetryIntervalSec=500ms\n"
                  "[Update]\nReclaimTimeoutSec=10\nHistoryLimit=50\n"
                  "[Authorization]\nGroup=wheel\n[Cgroup]\nDriver=cgroupfs\n"
                  "[Paths]\nStateDirectory=/tmp/x\nPodmanSocket=/tmp/p.sock\nCgroupRoot=/tmp/cg\n");
    const auto settings = loadConfig(file(), {});
    EXPECT_EQ(settings.systemReserve, (core::Amounts{1500, 1ull << 30}));
    EXPECT_EQ(settings.syncInterval, std::chrono::minutes(2));
    EXPECT_EQ(settings.retryAttempts, 7u);
    EXPECT_EQ(settings.retryInterval, std::chrono::milliseconds(500));
    EXPECT_EQ(settings.defaultReclaimTimeout, std::chrono::seconds(10));
    EXPECT_EQ(settings.historyLimit, 50u);
    EXPECT_EQ(settings.adminGroup, "wheel");
    EXPECT_EQ(settings.cgroupDriver, cgroup::DriverChoice::Cgroupfs);
    EXPECT_EQ(settings.stateDir, "/tmp/x");
    EXPECT_EQ(settings.podmanSocket, "/tmp/p.sock");
    EXPECT_EQ(settings.cgroupRoot, "/tmp/cg");
}

TEST_F(ConfigTest, ReadsTheCpuManager)
{
    write(file(), "[CpuManager]\nPolicy=static\nReservedCpus=0,2\nFullPhysicalCpusOnly=yes\n"
                  "TopologyScope=container\n");
    const auto settings = loadConfig(file(), {});
    EXPECT_EQ(settings.cpuManager.policy, core::CpuManagerPolicy::Static);
    EXPECT_EQ(settings.cpuManager.reserved, (core::CpuSet{0, 2}));
    EXPECT_TRUE(settings.cpuManager.slices.fullPhysicalCpusOnly);
    EXPECT_EQ(settings.cpuManager.scope, core::TopologyScope::Container);

    write(file(), "[CpuManager]\nTopologyScope=pod\n");
    EXPECT_EQ(loadConfig(file(), {}).cpuManager.scope, core::TopologyScope::Pod);
    write(file(), "[CpuManager]\nFullPhysicalCpusOnly=off\n");
    EXPECT_FALSE(loadConfig(file(), {}).cpuManager.slices.fullPhysicalCpusOnly);
    EXPECT_EQ(loadConfig(file(), {}).cpuManager.policy, core::CpuManagerPolicy::None);
    for (const char* bad : {"[CpuManager]\nTopologyScope=Pod\n", "[CpuManager]\nFullPhysicalCpusOnly=maybe\n",
                            "[CpuManager]\nPolicy=Static\n", "[CpuManager]\nReservedCpus=3-1\n"}) {
        write(file(), bad);
        EXPECT_THROW(loadConfig(file(), {}), ConfigError) << bad;
    }
}

TEST_F(ConfigTest, DropInsApplyInLexicalOrderAfterTheMainFile)
{
    write(file(), "[Node]\nReservedCPU=100m\n");
    write(directory_ / "resized.conf.d" / "20-late.conf", "[Node]\nReservedCPU=300m\n");
    write(directory_ / "resized.conf.d" / "10-early.conf", "[Node]\nReservedCPU=200m\nReservedMemory=1Mi\n");
    write(directory_ / "resized.conf.d" / "ignored.txt", "[Node]\nReservedCPU=999\n");
    const auto settings = loadConfig(file(), {});
    EXPECT_EQ(settings.systemReserve, (core::Amounts{300, 1ull << 20}));
}

TEST_F(ConfigTest, ABadFileNamesFileAndLine)
{
    write(file(), "[Node]\nReservedCPU=100m\nReservedMemory=lots\n");
    try {
        loadConfig(file(), {});
        FAIL() << "a bad value was accepted";
    } catch (const ConfigError& error) {
        EXPECT_EQ(std::string(error.what()), file().string() + ":3: bad value \"lots\" for [Node] ReservedMemory");
    }
}

TEST_F(ConfigTest, UnknownKeysAndSectionsAreRefused)
{
    write(file(), "[Node]\nReservedGPU=1\n");
    EXPECT_THROW(loadConfig(file(), {}), ConfigError);
    write(file(), "[Nodes]\nReservedCPU=1\n");
    EXPECT_THROW(loadConfig(file(), {}), ConfigError);
    write(file(), "[Cgroup]\nDriver=magic\n");
    EXPECT_THROW(loadConfig(file(), {}), ConfigError);
    write(file(), "[Sync]\nIntervalSec=0\n");
    EXPECT_THROW(loadConfig(file(), {}), ConfigError);
}

// The store counts history rows in SQLite's signed 64 bits: a larger limit
// once wrapped negative and deleted every entry.
TEST_F(ConfigTest, AHistoryLimitBeyondWhatTheStoreCountsIsRefused)
{
    write(file(), "[Update]\nHistoryLimit=9223372036854775807\n");
    EXPECT_EQ(loadConfig(file(), {}).historyLimit, 9223372036854775807u);

    write(file(), "[Update]\nHistoryLimit=9223372036854775808\n");
    try {
        loadConfig(file(), {});
        FAIL() << "a history limit of 2^63 was accepted";
    } catch (const ConfigError& error) {
        EXPECT_EQ(std::string(error.what()),
                  file().string() + ":2: bad value \"9223372036854775808\" for [Update] HistoryLimit");
    }
}
