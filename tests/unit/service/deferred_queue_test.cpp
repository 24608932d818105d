#include "service/deferred_queue.h"

#include <gtest/gtest.h>

// The order in which freed capacity is offered to waiting requests.
namespace resized::service {
namespace {

// Waiting requests, oldest first, as "pool/workload" ("/n1": no pool).
std::vector<WaitingUpdate> waiting(const std::vector<std::string>& entries)
{
    std::vector<WaitingUpdate> result;
    for (const auto& entry : entries) {
        const auto slash = entry.find('/');
        WaitingUpdate update;
        update.pool = entry.substr(0, slash);
        update.update.workload = entry.substr(slash + 1);
        result.push_back(std::move(update));
    }
    return result;
}

std::vector<std::string> workloads(const std::vector<WaitingUpdate>& order)
{
    std::vector<std::string> names;
    for (const auto& entry : order)
        names.push_back(entry.update.workload);
    return names;
}

const std::vector<std::string> kBigPoolFirst{"big/b1", "big/b2", "big/b3", "/n1", "small/s1"};

TEST(RoundRobinByPool, TakesOneFromEachPoolInTurnOldestFirstWithinEach)
{
    EXPECT_EQ(workloads(roundRobinByPool(waiting(kBigPoolFirst), "")),
              (std::vector<std::string>{"b1", "s1", "n1", "b2", "b3"}));
}

TEST(RoundRobinByPool, BeginsWithThePoolAfterTheOneServedLast)
{
    EXPECT_EQ(workloads(roundRobinByPool(waiting(kBigPoolFirst), "big")),
              (std::vector<std::string>{"s1", "n1", "b1", "b2", "b3"}));
    // After the last pool in name order, the round wraps to no pool.
    EXPECT_EQ(workloads(roundRobinByPool(waiting(kBigPoolFirst), "small")),
              (std::vector<std::string>{"n1", "b1", "s1", "b2", "b3"}));
    // A pool served last that waits no more: the next one in name order.
    EXPECT_EQ(workloads(roundRobinByPool(waiting(kBigPoolFirst), "medium")),
              (std::vector<std::string>{"s1", "n1", "b1", "b2", "b3"}));
}

TEST(RoundRobinByPool, OnePoolKeepsItsOrderAndNothingIsEmpty)
{
    EXPECT_EQ(workloads(roundRobinByPool(waiting({"p/c", "p/a", "p/b"}), "p")),
              (std::vector<std::string>{"c", "a", "b"}));
    EXPECT_TRUE(roundRobinByPool({}, "p").empty());
}

}  // namespace
}  // namespace resized::service
