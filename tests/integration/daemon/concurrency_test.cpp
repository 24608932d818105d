// Many clients at once, each on a bus connection of its own, asking for more
// CPU than the node has: admission must never overcommit, and every refusal
// must be InsufficientResources.
//
// The cgroup files are read only between rounds of concurrent calls, when
// every call has been answered: a sum read file by file while the daemon
// writes could add up values that never coexisted. While calls are in
// flight, the daemon's own budget is checked instead, after every reply, in
// one GetAll (the daemon answers it from one state).

#include "daemon_test.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <mutex>
#include <thread>

namespace resized::integration
{
namespace
{

using ::testing::Each;
using ::testing::Eq;

constexpr std::size_t containerCount = 4;
constexpr std::size_t clientCount = 16;
constexpr std::size_t roundCount = 4;
// Asks differ by up to four steps, so that the clients' requests fit in
// varying combinations.
constexpr std::uint64_t askSteps = 5;

// CpuAllocatedMillis + CpuReservedMillis of one snapshot of the Manager's
// properties.
std::uint64_t committedCpu(ResizedClient& client)
{
    const Dictionary properties = client.managerProperties();
    return entryOf<std::uint64_t>(properties, "CpuAllocatedMillis") +
           entryOf<std::uint64_t>(properties, "CpuReservedMillis");
}

class ConcurrencyTest : public DaemonTest
{
  protected:
    // What the containers' cgroup files hold, with no call in flight: no more
    // than the capacity, exactly what the daemon counts as allocated, each
    // container its desired state, and no reservation left.
    void expectCgroupsWithinTheBudget(const std::deque<ScopedContainer>& containers,
                                      std::uint64_t capacity)
    {
        std::uint64_t sum = 0;
        for (const auto& container : containers)
        {
            const auto millis = CgroupLimits::read(container.cgroupPath()).cpuMillis();
            sum += millis.value_or(0);
            const Dictionary status = client().getResourceStatus(container.name());
            EXPECT_EQ(desiredOf(status).cpuMillis, millis) << container.name();
        }
        EXPECT_LE(sum, capacity);
        EXPECT_EQ(client().managerNumber("CpuAllocatedMillis"), sum);
        EXPECT_EQ(client().managerNumber("CpuReservedMillis"), 0U);
    }
};

TEST_F(ConcurrencyTest, ParallelUpdatesNeverOvercommitTheCpu)
{
    const std::uint64_t capacity = cpuCapacity();
    // The smallest ask, a multiple of 10m, is more than a quarter of the
    // capacity: all four containers can never hold what they ask at once,
    // whatever the node's size.
    const std::uint64_t smallestAsk = (capacity / containerCount / 10 + 1) * 10;
    const std::uint64_t askStep = std::max<std::uint64_t>(smallestAsk / askSteps / 10 * 10, 10);
    ASSERT_GT(containerCount * smallestAsk, capacity);

    std::deque<ScopedContainer> containers;
    for (std::size_t i = 0; i < containerCount; ++i)
    {
        containers.emplace_back(podman(), containerName(std::to_string(i)));
    }
    std::deque<ResizedClient> clients(clientCount);

    std::mutex outcomesMutex;
    std::vector<std::string> refusals;
    std::size_t admitted = 0;
    std::uint64_t largestCommitted = 0;
    for (std::size_t round = 0; round < roundCount; ++round)
    {
        std::vector<std::thread> calls;
        for (std::size_t c = 0; c < clientCount; ++c)
        {
            calls.emplace_back([&, c] {
                const std::size_t ask = c * roundCount + round;
                const auto error = errorOf([&] {
                    clients[c].updateResources(
                        containers[ask % containerCount].name(),
                        ResourceValues{.cpuMillis = smallestAsk + askStep * (ask % askSteps)});
                });
                const std::uint64_t committed = committedCpu(clients[c]);
                const std::lock_guard lock(outcomesMutex);
                largestCommitted = std::max(largestCommitted, committed);
                if (error)
                {
                    refusals.push_back(error->getName());
                }
                else
                {
                    ++admitted;
                }
            });
        }
        for (auto& call : calls)
        {
            call.join();
        }
        SCOPED_TRACE("after round " + std::to_string(round));
        expectCgroupsWithinTheBudget(containers, capacity);
    }

    EXPECT_GT(admitted, 0U);
    EXPECT_FALSE(refusals.empty());
    EXPECT_THAT(refusals, Each(Eq("io.resized1.Error.InsufficientResources")));
    EXPECT_LE(largestCommitted, capacity);
}

} // namespace
} // namespace resized::integration
