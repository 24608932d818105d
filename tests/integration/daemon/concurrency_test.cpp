// Many clients at once, each on a bus connection of its own, asking for more
// CPU than the node has: admission must never let the cgroup files hold more
// than the capacity, and every refusal must be InsufficientResources.

#include "daemon_test.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <deque>
#include <thread>

namespace resized::integration
{
namespace
{

using ::testing::Each;
using ::testing::Eq;

constexpr std::size_t containerCount = 4;
constexpr std::size_t clientCount = 16;
constexpr std::size_t roundsPerClient = 3;

// Whether the CPU limits of containers add up to more than capacity at any
// moment while it watches.
class CpuSumWatcher
{
  public:
    explicit CpuSumWatcher(std::vector<std::filesystem::path> cgroupPaths) :
        cgroupPaths_(std::move(cgroupPaths)), thread_([this] { watch(); })
    {}
    CpuSumWatcher(const CpuSumWatcher&) = delete;
    CpuSumWatcher& operator=(const CpuSumWatcher&) = delete;
    ~CpuSumWatcher() { stop(); }

    // Stops watching; the largest sum it saw.
    std::uint64_t stop()
    {
        stopping_ = true;
        if (thread_.joinable())
        {
            thread_.join();
        }
        return largestSum_;
    }

  private:
    void watch()
    {
        while (!stopping_)
        {
            largestSum_ = std::max(largestSum_, currentSum());
        }
        largestSum_ = std::max(largestSum_, currentSum());
    }

    std::uint64_t currentSum() const
    {
        std::uint64_t sum = 0;
        for (const auto& path : cgroupPaths_)
        {
            sum += CgroupLimits::read(path).cpuMillis().value_or(0);
        }
        return sum;
    }

    std::vector<std::filesystem::path> cgroupPaths_;
    std::atomic<bool> stopping_ = false;
    std::uint64_t largestSum_ = 0;
    std::thread thread_;
};

using ConcurrencyTest = DaemonTest;

TEST_F(ConcurrencyTest, ParallelUpdatesNeverOvercommitTheCpu)
{
    std::deque<ScopedContainer> containers;
    std::vector<std::filesystem::path> cgroupPaths;
    for (std::size_t i = 0; i < containerCount; ++i)
    {
        containers.emplace_back(podman(), containerName(std::to_string(i)));
        cgroupPaths.push_back(containers.back().cgroupPath());
    }
    const std::uint64_t capacity = cpuCapacity();
    // Every container asks for at least 500m, so all four can never hold
    // what they ask at once.
    ASSERT_LT(capacity, containerCount * 500);

    CpuSumWatcher watcher(cgroupPaths);
    std::vector<std::vector<std::string>> outcomes(clientCount);
    std::vector<std::thread> clients;
    for (std::size_t c = 0; c < clientCount; ++c)
    {
        clients.emplace_back([&, c] {
            ResizedClient ownClient;
            for (std::size_t round = 0; round < roundsPerClient; ++round)
            {
                const std::size_t ask = c * roundsPerClient + round;
                const auto error = errorOf([&] {
                    ownClient.updateResources(
                        containers[ask % containerCount].name(),
                        ResourceValues{.cpuMillis = 500 + 100 * (ask % 5)});
                });
                outcomes[c].push_back(error ? error->getName() : "ok");
            }
        });
    }
    for (auto& thread : clients)
    {
        thread.join();
    }
    const std::uint64_t largestSum = watcher.stop();

    std::vector<std::string> refusals;
    std::size_t admitted = 0;
    for (const auto& clientOutcomes : outcomes)
    {
        for (const auto& outcome : clientOutcomes)
        {
            if (outcome == "ok")
            {
                ++admitted;
            }
            else
            {
                refusals.push_back(outcome);
            }
        }
    }
    EXPECT_GT(admitted, 0U);
    EXPECT_FALSE(refusals.empty());
    EXPECT_THAT(refusals, Each(Eq("io.resized1.Error.InsufficientResources")));
    EXPECT_LE(largestSum, capacity);

    std::uint64_t finalSum = 0;
    for (const auto& container : containers)
    {
        const auto millis = CgroupLimits::read(container.cgroupPath()).cpuMillis();
        finalSum += millis.value_or(0);
        const Dictionary status = client().getResourceStatus(container.name());
        EXPECT_EQ(desiredOf(status).cpuMillis, millis) << container.name();
    }
    EXPECT_LE(finalSum, capacity);
    EXPECT_EQ(client().managerNumber("CpuAllocatedMillis"), finalSum);
    EXPECT_EQ(client().managerNumber("CpuReservedMillis"), 0U);
}

} // namespace
} // namespace resized::integration
