// The configuration file and its drop-ins: read at start, read again on
// SIGHUP; a bad file is reported with its name and line and changes nothing.

#include "manager_signals.h"
#include "reconcile_test.h"

#include "support/bus_names.h"
#include "support/child_process.h"
#include "support/wait.h"

#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace resized::integration
{
namespace
{

class ConfigTest : public ReconcileTest
{
  protected:
    std::uint64_t cpuCapacity() { return client().managerNumber("CpuCapacityMillis"); }

    // SIGHUP to whoever owns the daemon's bus name: the daemon itself.
    static void askForReload()
    {
        const auto pid = busNameOwnerPid(busName);
        ASSERT_TRUE(pid) << "nobody owns " << busName;
        ASSERT_EQ(::kill(*pid, SIGHUP), 0);
    }

    bool waitForCpuCapacity(std::uint64_t millis)
    {
        return waitUntil([&] { return cpuCapacity() == millis; }, backgroundTimeout);
    }

    bool waitForLogLine(const std::string& text)
    {
        return waitUntil([&] { return daemon().log().find(text) != std::string::npos; },
                         backgroundTimeout);
    }

    std::string dropInPath(const std::string& name) const
    {
        return configFile().string() + ".d/" + name;
    }

    // pools.d/NAME.conf beside the configuration file.
    std::filesystem::path poolFile(const std::string& name) const
    {
        return configFile().parent_path() / "pools.d" / (name + ".conf");
    }

    void writePoolFile(const std::string& name, const std::string& text) const
    {
        std::filesystem::create_directories(poolFile(name).parent_path());
        std::ofstream(poolFile(name)) << text;
    }

    std::vector<std::string> poolNames()
    {
        std::vector<std::string> names;
        for (const auto& pool : client().listPools())
            names.push_back(pool.get<0>());
        return names;
    }

    std::uint64_t poolCpuCap(const std::string& name)
    {
        const auto properties = client().poolProperties(sdbus::ObjectPath("/io/resized1/pool/" + name));
        return properties.at("CpuCapacityMillis").get<std::uint64_t>();
    }
};

TEST_F(ConfigTest, SighupAppliesAChangedDropIn)
{
    startDaemon();
    const std::uint64_t wholeNode = cpuCapacity();

    const ManagerSignals signals;
    writeDropIn("50-reserve.conf", "[Node]\nReservedCPU=500m\n");
    askForReload();
    EXPECT_TRUE(waitForCpuCapacity(wholeNode - 500)) << cpuCapacity();
    EXPECT_TRUE(signals.waitForPropertyChange("CpuCapacityMillis", backgroundTimeout));
    EXPECT_EQ(client().managerNumber("CpuAvailableMillis"), wholeNode - 500);

    writeDropIn("50-reserve.conf", "[Node]\nReservedCPU=750m\n");
    askForReload();
    EXPECT_TRUE(waitForCpuCapacity(wholeNode - 750)) << cpuCapacity();
}

TEST_F(ConfigTest, DropInOverridesTheMainFileAtStart)
{
    startDaemon();
    const std::uint64_t wholeNode = cpuCapacity();
    daemon().stop();

    writeConfig("[Node]\nReservedCPU=250m\n[Sync]\nIntervalSec=3600\n");
    writeDropIn("50-reserve.conf", "[Node]\nReservedCPU=1\n");
    startDaemon();
    EXPECT_EQ(cpuCapacity(), wholeNode - 1000);
}

TEST_F(ConfigTest, BadDropInOnReloadKeepsThePreviousSettings)
{
    writeDropIn("50-reserve.conf", "[Node]\nReservedCPU=500m\n");
    startDaemon();
    const std::uint64_t before = cpuCapacity();
    const auto pid = busNameOwnerPid(busName);

    writeDropIn("60-bad.conf", "[Node]\nReservedCPU=lots\n");
    writeDropIn("50-reserve.conf", "[Node]\nReservedCPU=750m\n");
    askForReload();
    // The daemon names the file and line it refused.
    EXPECT_TRUE(waitForLogLine(dropInPath("60-bad.conf") + ":2"));
    EXPECT_EQ(cpuCapacity(), before) << "a half-read configuration was applied";
    EXPECT_TRUE(daemon().running());
    EXPECT_EQ(busNameOwnerPid(busName), pid);

    // Still reloading once the file is fixed.
    std::filesystem::remove(dropInPath("60-bad.conf"));
    askForReload();
    EXPECT_TRUE(waitForCpuCapacity(before - 250)) << cpuCapacity();
}

// design.md §1b: pools declared in files, read-only over D-Bus, read again
// on reload; a bad pool file on reload keeps every pool as it was.
TEST_F(ConfigTest, PoolsDeclaredInFilesAreReadOnlyOverTheBusAndFollowTheirFiles)
{
    writePoolFile("batch", "[Pool]\nCPU=1500m\n[Budget office-hours]\nValue=0\nSchedule=0 9 * * mon-fri\n"
                           "DurationSec=8h\nTimeZone=Europe/Berlin\n");
    startDaemon();
    EXPECT_EQ(poolNames(), std::vector<std::string>{"batch"});
    EXPECT_EQ(poolCpuCap("batch"), 1500U);

    const auto set = errorOf([&] { client().setPool("batch", {{"CpuMillis", sdbus::Variant(std::uint64_t{100})}}); });
    const auto removed = errorOf([&] { client().removePool("batch"); });
    ASSERT_TRUE(set);
    EXPECT_EQ(set->getName(), "io.resized1.Error.InvalidArgument");
    EXPECT_EQ(set->getMessage(), "pool batch is declared in " + poolFile("batch").string() +
                                     ": change that file and reload resized (systemctl reload resized)");
    ASSERT_TRUE(removed);
    EXPECT_EQ(removed->getName(), "io.resized1.Error.InvalidArgument");
    EXPECT_EQ(poolCpuCap("batch"), 1500U);

    // A pool set over D-Bus stays one; a changed file changes its pool.
    client().setPool("web", {{"CpuMillis", sdbus::Variant(std::uint64_t{700})}});
    writePoolFile("batch", "[Pool]\nCPU=2\n");
    askForReload();
    EXPECT_TRUE(waitUntil([&] { return poolCpuCap("batch") == 2000U; }, backgroundTimeout));
    EXPECT_EQ(poolNames(), (std::vector<std::string>{"batch", "web"}));

    // A bad pool file: reported with its line, and nothing changes.
    writePoolFile("batch", "[Pool]\nCPU=3\n");
    writePoolFile("broken", "[Pool]\nCPU=1\n[Budget night]\nValue=1\nSchedule=0 25 * * *\nDurationSec=1h\n");
    askForReload();
    EXPECT_TRUE(waitForLogLine(poolFile("broken").string() +
                               ": [Budget night]: the cron schedule's hour field \"25\" has 25, outside 0–23"));
    EXPECT_EQ(poolCpuCap("batch"), 2000U);

    // Its file gone, the declared pool goes; the other stays.
    std::filesystem::remove(poolFile("broken"));
    std::filesystem::remove(poolFile("batch"));
    askForReload();
    EXPECT_TRUE(waitUntil([&] { return poolNames() == std::vector<std::string>{"web"}; }, backgroundTimeout));
}

TEST_F(ConfigTest, BadConfigurationAtStartEndsTheDaemonNamingFileAndLine)
{
    writeConfig("[Node]\nReservedCPU=0\nNoSuchSetting=1\n");
    const DaemonOptions& options = daemonOptions();
    std::filesystem::create_directories(options.stateDirectory);
    ChildProcess refused({options.binary, "--config", options.configFile,
                          "--state-dir", options.stateDirectory,
                          "--podman-socket", options.podmanSocket,
                          "--cgroup-root", options.cgroupRoot},
                         options.logFile);

    ASSERT_TRUE(waitUntil([&] { return !refused.running(); }, backgroundTimeout));
    // It has ended already: this only hands over its exit status.
    const int status = refused.signalAndWait(SIGKILL);
    EXPECT_NE(status, 0);
    EXPECT_LT(status, 128) << "ended by a signal, not by its own refusal";
    std::ifstream logStream(options.logFile);
    const std::string log{std::istreambuf_iterator<char>(logStream), {}};
    EXPECT_NE(log.find(configFile().string() + ":3"), std::string::npos) << log;
    EXPECT_FALSE(busNameHasOwner(busName));
}

} // namespace
} // namespace resized::integration
