// The test environment and the support library themselves: what the other
// integration tests rely on, checked against the real Podman and cgroups.

#include "support/cgroup_v1.h"
#include "support/command.h"
#include "support/daemon_process.h"
#include "support/integration_test.h"
#include "support/podman_cli.h"
#include "support/spawn.h"

#include <stdlib.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace resized::integration
{
namespace
{

class TestEnvironmentTest : public IntegrationTest
{
  protected:
    PodmanCli podman() const { return PodmanCli(environment()); }
};

TEST_F(TestEnvironmentTest, PodmanApiServiceAnswers)
{
    const CommandResult result = runCommand(
        {"curl", "--silent", "--unix-socket", environment().podmanSocket.string(),
         "http://d/_ping"});

    EXPECT_EQ(result.exitStatus, 0) << result.standardError;
    EXPECT_EQ(result.standardOutput, "OK");
}

TEST_F(TestEnvironmentTest, StorageIsPrivateToTheRun)
{
    const std::string graphRoot = podman().run({"info", "--format",
                                                "{{.Store.GraphRoot}}"})
                                      .standardOutput;

    EXPECT_THAT(graphRoot, ::testing::StartsWith(environment().directory.string()));
}

TEST_F(TestEnvironmentTest, ContainerGetsCgroupOfItsOwnWithCreateTimeLimits)
{
    const ScopedContainer container(podman(), "testenv-limits", {"--cpus=0.5"});
    const CgroupV1 cgroup(container.cgroupPath());

    EXPECT_THAT(container.cgroupPath().string(), ::testing::HasSubstr(container.id()));
    EXPECT_EQ(cgroup.readNumber("cpu", "cpu.cfs_period_us"), 100000);
    EXPECT_EQ(cgroup.readNumber("cpu", "cpu.cfs_quota_us"), 50000);
}

TEST_F(TestEnvironmentTest, ScopedContainerRemovesContainerAndCgroup)
{
    std::filesystem::path cpuCgroup;
    {
        const ScopedContainer container(podman(), "testenv-scoped");
        cpuCgroup = CgroupV1(container.cgroupPath()).file("cpu", "");
        ASSERT_TRUE(std::filesystem::exists(cpuCgroup));
    }

    EXPECT_FALSE(podman().run({"container", "exists", "testenv-scoped"}).succeeded());
    EXPECT_FALSE(std::filesystem::exists(cpuCgroup));
}

TEST_F(TestEnvironmentTest, ScopedContainerRemovesARenamedContainer)
{
    std::string id;
    {
        const ScopedContainer container(podman(), "testenv-renamed");
        id = container.id();
        ASSERT_TRUE(podman().run({"rename", id, "testenv-renamed-away"}).succeeded());
    }

    EXPECT_FALSE(podman().run({"container", "exists", id}).succeeded());
}

// What a test run killed together with its janitor leaves: a cgroup
// /resized-test-<pid>-* of its dead test process, a system group it
// recorded, its folder. The next run's start removes them.
TEST_F(TestEnvironmentTest, StartRemovesWhatDeadRunsLeftBehind)
{
    const pid_t dead = spawnProcess({"true"}, SpawnFileActions());
    ASSERT_EQ(waitForExit(dead), 0);
    const std::string label = "resized-test-" + std::to_string(dead);
    const std::filesystem::path cgroup = "/sys/fs/cgroup/cpu/" + label + "-leftover";
    std::filesystem::create_directories(cgroup / "child");
    const char* temporary = std::getenv("TMPDIR");
    std::string folderTemplate =
        std::string(temporary != nullptr ? temporary : "/var/tmp") + "/resized-testenv.XXXXXX";
    ASSERT_NE(::mkdtemp(folderTemplate.data()), nullptr);
    const std::filesystem::path deadRun = folderTemplate;
    std::ofstream(deadRun / "owner.pid") << dead << "\n";
    const std::string group = label + "-g";
    runCommandOrThrow({"groupadd", "--system", group});
    std::filesystem::create_directories(deadRun / "system-accounts");
    std::ofstream(deadRun / "system-accounts" / ("group-" + group)).flush();

    const CommandResult nested = runCommand({WITH_TESTENV_SCRIPT, "true"});

    EXPECT_EQ(nested.exitStatus, 0) << nested.standardError;
    EXPECT_FALSE(std::filesystem::exists(cgroup)) << nested.standardError;
    EXPECT_FALSE(std::filesystem::exists(deadRun)) << nested.standardError;
    EXPECT_FALSE(runCommand({"getent", "group", group}).succeeded()) << nested.standardError;
    // Whatever the outcome, nothing of it stays.
    runCommand({"groupdel", group});
    runCommand({"rmdir", (cgroup / "child").string(), cgroup.string()});
    std::filesystem::remove_all(deadRun);
}

TEST_F(TestEnvironmentTest, MemoryHolderIsChargedToItsCgroup)
{
    constexpr std::uint64_t mebibytes = 48;
    const auto container =
        ScopedContainer::holdingMemory(podman(), "testenv-memory", mebibytes);
    const CgroupV1 cgroup(container.cgroupPath());

    EXPECT_TRUE(cgroup.waitForMemoryUsageAbove(mebibytes << 20,
                                               std::chrono::seconds(30)));
}

TEST_F(TestEnvironmentTest, RunCommandReportsOutputAndExitStatus)
{
    const CommandResult result =
        runCommand({"sh", "-c", "echo out; echo err >&2; exit 3"});

    EXPECT_EQ(result.exitStatus, 3);
    EXPECT_EQ(result.standardOutput, "out\n");
    EXPECT_EQ(result.standardError, "err\n");
}

TEST_F(TestEnvironmentTest, DaemonThatExitsEarlyFailsToStartWithItsLog)
{
    const auto directory = environment().directory / "early-exit";
    std::filesystem::create_directories(directory);
    DaemonOptions options;
    options.binary = directory / "failing-daemon";
    options.stateDirectory = directory / "state";
    options.logFile = directory / "log";
    std::ofstream(options.binary) << "#!/bin/sh\necho cannot start >&2\nexit 1\n";
    std::filesystem::permissions(options.binary, std::filesystem::perms::owner_all);

    try
    {
        DaemonProcess daemon(options);
        FAIL() << "a daemon that exited was reported as started";
    }
    catch (const std::runtime_error& error)
    {
        EXPECT_THAT(error.what(), ::testing::HasSubstr("cannot start"));
    }
}

} // namespace
} // namespace resized::integration
