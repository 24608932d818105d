// resized-oci-hook closes the window between a container's (re)start and
// the event stream's repair: with the hook installed (a private hooks_dir
// in this test's containers.conf), a managed container runs its first
// instruction under its desired limits. Each container here prints its own
// CFS quota as that first instruction, one line per start in `podman logs`.

#include "events_test.h"
#include "support/host_cpus.h"
#include "support/wait.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace resized::integration::events
{
namespace
{

constexpr Limits createTime{.cpuMillis = 500, .memoryMax = noLimit};
constexpr int restarts = 20;

// The CFS quota in µs at a 100 ms period, as the container reads it.
std::string quotaOf(const Limits& limits) { return std::to_string(limits.cpuMillis * 100); }

// Prints the container's own quota (v1 or v2), then idles.
std::vector<std::string> printQuotaThenIdle()
{
    return {"sh", "-c",
            "cat /sys/fs/cgroup/cpu/cpu.cfs_quota_us 2>/dev/null || cut -d' ' -f1 /sys/fs/cgroup/cpu.max; "
            "trap 'exit 0' TERM; while :; do sleep 1; done"};
}

class OciHookTest : public EventsTest
{
  protected:
    void SetUp() override
    {
        EventsTest::SetUp();
        if (IsSkipped())
        {
            return;
        }
        const auto directory = environment().directory / "oci-hook" / nameFor("hooks");
        std::filesystem::create_directories(directory);
        // A hook gets no environment but what its file sets. Its time limit
        // is raised from 200 ms: what is tested is what the container sees,
        // also on a loaded machine and under the sanitizers, not how fast.
        std::ofstream(directory / "resized.json")
            << R"({"version":"1.0.0","hook":{"path":")" << OCI_HOOK_BINARY
            << R"(","env":["DBUS_SYSTEM_BUS_ADDRESS=)" << environment().busAddress
            << R"(","RESIZED_HOOK_TIMEOUT_MSEC=3000"]},"when":{"always":true},"stages":["createRuntime"]})";

        previousConf_ = std::getenv("CONTAINERS_CONF");
        ASSERT_NE(previousConf_, nullptr) << "with-testenv.sh sets CONTAINERS_CONF";
        std::stringstream conf;
        conf << std::ifstream(previousConf_).rdbuf();
        std::string text = conf.str();
        const auto engine = text.find("[engine]\n");
        ASSERT_NE(engine, std::string::npos);
        text.insert(engine + 9, "hooks_dir = [\"" + directory.string() + "\"]\n");
        hookedConf_ = directory / "containers.conf";
        std::ofstream(hookedConf_) << text;
        // Every podman command of this test (they inherit it) uses the hook.
        setenv("CONTAINERS_CONF", hookedConf_.c_str(), 1);
    }

    void TearDown() override
    {
        if (previousConf_)
        {
            setenv("CONTAINERS_CONF", previousConf_, 1);
        }
        EventsTest::TearDown();
    }

    ScopedContainer runPrinting(const std::string& suffix)
    {
        return ScopedContainer(podman(), nameFor(suffix), {"--cpus", "0.5"}, printQuotaThenIdle());
    }

    // The quota each start of the container printed, oldest first.
    std::vector<std::string> printedQuotas(const std::string& name) const
    {
        std::vector<std::string> lines;
        std::istringstream output(podman().logs(name));
        for (std::string line; std::getline(output, line);)
        {
            lines.push_back(line);
        }
        return lines;
    }

    // Waits until the container has printed `count` lines.
    bool waitForPrints(const std::string& name, std::size_t count) const
    {
        return waitUntil([&] { return printedQuotas(name).size() >= count; }, reactionTimeout,
                         pollInterval);
    }

    // Restarts a container resized manages `count` times: each start
    // prints the desired quota.
    void expectEveryRestartUnderTheDesiredLimit(int count)
    {
        const auto container = runPrinting("c");
        ASSERT_TRUE(waitForPrints(container.name(), 1));
        bus().updateResources(container.name(), desired);

        for (int restart = 1; restart <= count; ++restart)
        {
            podmanOrThrow({"restart", "--time", "0", container.name()});
            // `podman restart` returns before the first instruction has run: a
            // next restart right away could kill the container before it prints.
            ASSERT_TRUE(waitForPrints(container.name(), 1 + restart)) << "start " << restart;
        }

        const auto printed = printedQuotas(container.name());
        ASSERT_EQ(printed.size(), 1U + count);
        // The first start was before resized was asked anything.
        EXPECT_EQ(printed.front(), quotaOf(createTime));
        for (std::size_t start = 1; start < printed.size(); ++start)
        {
            EXPECT_EQ(printed[start], quotaOf(desired)) << "start " << start;
        }
        EXPECT_TRUE(waitForSynchronized(container.name()));
        EXPECT_EQ(readLimits(container.cgroupPath()), desired);
        // Each start's limits were a repair of resized's, and the history
        // says so: mostly the hook's; the reconciler's when an event or a
        // pass had begun one before the hook came, which the hook then waited
        // for (a busy machine's timing).
        const auto history = bus().history(container.name());
        const auto hookRepairs = std::count(history.begin(), history.end(), "hook repair success");
        const auto reconcileRepairs = std::count(history.begin(), history.end(), "reconcile repair success");
        EXPECT_GT(hookRepairs, 0) << ::testing::PrintToString(history);
        EXPECT_GE(hookRepairs + reconcileRepairs, count) << ::testing::PrintToString(history);
        EXPECT_EQ(history.back(), "uid:" + std::to_string(geteuid()) + " update success");
    }

  private:
    const char* previousConf_ = nullptr;
    std::filesystem::path hookedConf_;
};


TEST_F(OciHookTest, EveryRestartRunsItsFirstInstructionUnderTheDesiredLimit)
{
    startDaemon();
    expectEveryRestartUnderTheDesiredLimit(restarts);
}

// A pass over every workload lists Podman's containers, which Podman answers
// only once it can take each container's lock: a restarting container holds
// its lock until its hook returns. With a pass every second some fall into
// restarts; the hook must still be answered.
TEST_F(OciHookTest, RestartsDuringPassesOverEveryWorkloadRunUnderTheDesiredLimit)
{
    std::ofstream(daemonOptions().configFile) << "[Sync]\nIntervalSec=1\n";
    startDaemon();
    expectEveryRestartUnderTheDesiredLimit(restarts / 2);
}

TEST_F(OciHookTest, AContainerCreatedAgainUnderAKnownNameStartsUnderItsLimitAndItsAllocation)
{
    startDaemon();
    const std::string name = nameFor("c");
    {
        const auto first = runPrinting("c");
        bus().updateResources(name, desired);
    }
    const std::uint64_t allocated = bus().cpuAllocatedMillis();

    const auto again = runPrinting("c");
    ASSERT_TRUE(waitForPrints(name, 1));
    EXPECT_EQ(printedQuotas(name).front(), quotaOf(desired));
    EXPECT_TRUE(waitForSynchronized(name));
    EXPECT_EQ(bus().cpuAllocatedMillis(), allocated);
    expectDesiredLimitsOn(again);
}

TEST_F(OciHookTest, AContainerResizedNeverHeardOfStartsAsCreated)
{
    startDaemon();
    const auto container = runPrinting("c");
    ASSERT_TRUE(waitForPrints(container.name(), 1));
    EXPECT_EQ(printedQuotas(container.name()).front(), quotaOf(createTime));
    EXPECT_EQ(readLimits(container.cgroupPath()), createTime);
}

// Under the CPU manager's static policy the hook places a container resized
// does not manage on the shared pool before it runs: its first instruction
// never runs on another container's exclusive CPU, at any start.
TEST_F(OciHookTest, AContainerResizedDoesNotManageNeverStartsOnASlice)
{
    if (onlineCpuCount() < 2)
    {
        GTEST_SKIP() << "a slice and a shared pool need 2 CPUs, this machine has " << onlineCpuList();
    }
    std::ofstream(daemonOptions().configFile, std::ios::app) << "[CpuManager]\nPolicy=static\n";
    startDaemon();
    const auto holder = runContainer("slice");
    const Dictionary status = bus().update(holder.name(), {{"ExclusiveCpus", sdbus::Variant(std::uint64_t{1})}});
    const std::string slice = entryOf<std::string>(entryOf<Dictionary>(status, "Desired"), "AllowedCpus");
    const std::string shared = onlineCpusExcept(slice);

    const ScopedContainer container(
        podman(), nameFor("c"), {},
        {"sh", "-c",
         "cat /sys/fs/cgroup/cpuset/cpuset.cpus 2>/dev/null || cat /sys/fs/cgroup/cpuset.cpus.effective; "
         "trap 'exit 0' TERM; while :; do sleep 1; done"});
    constexpr int starts = 5;
    ASSERT_TRUE(waitForPrints(container.name(), 1));
    for (int restart = 1; restart < starts; ++restart)
    {
        podmanOrThrow({"restart", "--time", "0", container.name()});
        ASSERT_TRUE(waitForPrints(container.name(), 1 + restart)) << "start " << restart;
    }
    EXPECT_EQ(printedQuotas(container.name()), std::vector<std::string>(starts, shared));
}

// The hook gives up after its time limit: a resized that is hung (stopped
// with SIGSTOP) or not running delays a start by that much at most, and the
// limits follow from the event stream once it runs again.
TEST_F(OciHookTest, AContainerStartsWhenResizedHangsOrIsGone)
{
    startDaemon();
    const auto container = runPrinting("c");
    bus().updateResources(container.name(), desired);

    // Held until the container has printed: `podman restart` returns before
    // its first instruction has run, and a resized woken meanwhile would
    // still answer the hook's call, late, and write the limits.
    ASSERT_EQ(kill(daemon().pid(), SIGSTOP), 0);
    const CommandResult whileHung = podman().run({"restart", "--time", "0", container.name()});
    const bool printedWhileHung = waitForPrints(container.name(), 2);
    ASSERT_EQ(kill(daemon().pid(), SIGCONT), 0);
    ASSERT_TRUE(whileHung.succeeded()) << whileHung.standardError;
    ASSERT_TRUE(printedWhileHung);
    EXPECT_EQ(printedQuotas(container.name()).at(1), quotaOf(createTime));
    EXPECT_TRUE(waitForLimits(container.cgroupPath(), desired));

    stopDaemon();
    const CommandResult whileGone = podman().run({"restart", "--time", "0", container.name()});
    ASSERT_TRUE(whileGone.succeeded()) << whileGone.standardError;
    ASSERT_TRUE(waitForPrints(container.name(), 3));
    EXPECT_EQ(printedQuotas(container.name()).at(2), quotaOf(createTime));

    startDaemon();
    EXPECT_TRUE(waitForLimits(container.cgroupPath(), desired));
    expectDesiredLimitsOn(container);
}

} // namespace
} // namespace resized::integration::events
