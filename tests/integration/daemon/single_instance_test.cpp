// One daemon per state directory: a second resized started on the state of a
// running one must stop before it reads or writes anything. Were it to run
// its start-up recovery, it would take the first one's update in flight for
// one a crash interrupted and undo it under the first one's feet.

#include "daemon_test.h"

#include "support/bus_names.h"
#include "support/cgroup_v1.h"
#include "support/child_process.h"
#include "support/wait.h"

#include <gtest/gtest.h>

#include <fstream>
#include <future>
#include <iterator>

namespace resized::integration
{
namespace
{

constexpr auto waitTimeout = std::chrono::seconds(30);

class SingleInstanceTest : public DaemonTest
{
  protected:
    // Starts a second resized on the first one's state directory,
    // configuration, Podman and bus, and waits for it to end.
    // Returns its exit status; nullopt when it keeps running.
    std::optional<int> runSecondDaemon()
    {
        const DaemonOptions& options = daemon().options();
        ChildProcess second({options.binary.string(), "--state-dir",
                             options.stateDirectory.string(), "--config",
                             options.configFile.string(), "--podman-socket",
                             options.podmanSocket.string(), "--cgroup-root",
                             options.cgroupRoot.string(), "--log-level", "debug"},
                            secondLog());
        if (!waitUntil([&] { return !second.running(); }, waitTimeout))
        {
            return std::nullopt;
        }
        return second.signalAndWait(SIGKILL);
    }

    std::filesystem::path secondLog()
    {
        return daemon().options().logFile.parent_path() / "second-resized.log";
    }

    std::string secondLogText()
    {
        std::ifstream stream(secondLog());
        return {std::istreambuf_iterator<char>(stream), {}};
    }
};

TEST_F(SingleInstanceTest, ASecondDaemonLeavesTheFirstOnesUpdateInFlightAlone)
{
    constexpr std::uint64_t heldMebibytes = 200;
    const auto container = ScopedContainer::holdingMemory(
        podman(), containerName("holder"), heldMebibytes, {"--cpus=0.2"});
    ASSERT_TRUE(CgroupV1(container.cgroupPath())
                    .waitForMemoryUsageAbove(150 * mebibyte, waitTimeout));

    // The memory shrink waits for reclaim until the held memory is freed;
    // the CPU raise comes after it.
    auto pending = startMemoryShrink(
        container, ResourceValues{.cpuMillis = 700, .memoryMax = 64 * mebibyte},
        std::chrono::seconds(20));
    const CgroupLimits inFlight = CgroupLimits::read(container.cgroupPath());
    const std::uint64_t reservedCpu = client().managerNumber("CpuReservedMillis");
    const std::uint64_t reservedMemory = client().managerNumber("MemoryReserved");
    ASSERT_GT(reservedCpu, 0U) << "the update in flight holds no reservation";
    const std::optional<pid_t> firstPid = busNameOwnerPid(busName);
    ASSERT_TRUE(firstPid);

    const std::optional<int> secondStatus = runSecondDaemon();

    ASSERT_TRUE(secondStatus) << "the second daemon keeps running";
    EXPECT_NE(*secondStatus, 0);
    const std::string refusal = "the state directory " +
                                daemon().options().stateDirectory.string() +
                                " is in use by another resized (PID " +
                                std::to_string(*firstPid) + ")";
    EXPECT_NE(secondLogText().find(refusal), std::string::npos)
        << "its log:\n" << secondLogText();
    EXPECT_EQ(client().managerNumber("CpuReservedMillis"), reservedCpu);
    EXPECT_EQ(client().managerNumber("MemoryReserved"), reservedMemory);
    EXPECT_EQ(CgroupLimits::read(container.cgroupPath()), inFlight);
    EXPECT_TRUE(daemon().running());
    EXPECT_EQ(busNameOwnerPid(busName), firstPid);

    // Freed memory lets the first daemon's shrink, and then its update,
    // finish as if nothing had happened.
    const CommandResult freed = podman().run({"exec", container.name(), "rm", "/dev/shm/held"});
    ASSERT_TRUE(freed.succeeded()) << freed.standardError;
    const std::optional<sdbus::Error> error = pending.get();
    EXPECT_FALSE(error) << error->getName() << ": " << error->getMessage();
    const CgroupLimits after = CgroupLimits::read(container.cgroupPath());
    EXPECT_EQ(after.memoryLimit, 64 * mebibyte);
    EXPECT_EQ(after.cpuMillis(), 700U);
    EXPECT_EQ(client().managerNumber("CpuReservedMillis"), 0U);
    EXPECT_EQ(client().managerNumber("MemoryReserved"), 0U);
}

} // namespace
} // namespace resized::integration
