#include "service/deferred_queue.h"

#include <gtest/gtest.h>

#include <optional>

#include "run_loop.h"
#include "temp_directory.h"

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

// Waits in `store` for 100m more CPU for each workload, in the pool given.
void deferOneHundredMillisEach(store::StateStore& store,
                               const std::vector<std::pair<std::string, std::string>>& workloadsAndPools)
{
    for (const auto& [workload, pool] : workloadsAndPools) {
        store::DeferredUpdate update;
        update.workload = workload;
        update.request.cpuMillis = 100;
        update.pool = pool;
        store.deferUpdate(update);
    }
}

// b1 and b2 wait in the big pool, s1 in the small one; the requests the
// queue offers are in `offered`, in order.
class DeferredQueueTest : public ::testing::Test {
protected:
    DeferredQueueTest() { deferOneHundredMillisEach(store, {{"b1", "big"}, {"b2", "big"}, {"s1", "small"}}); }

    // Notes the offer of `update`; b1's is started (the room freed first is
    // for it) and true.
    bool recordOfferStartingB1(const store::DeferredUpdate& update, const DeferredQueue::Next& next)
    {
        offered.push_back(update.workload);
        if (update.workload != "b1")
            return false;
        store.removeDeferred(update.workload);
        next(DeferredQueue::OfferOutcome::Started);
        return true;
    }

    resized::test::TempDirectory directory;
    store::StateStore store{directory.path() / "state.db"};
    EventLoop loop;
    std::vector<std::string> offered;
};

// Capacity that frees while a pass goes on, after it served the big pool and
// found no room for the small one, goes to the small pool's turn: not to the
// big pool's next request, which came after it in the pass under way.
TEST_F(DeferredQueueTest, CapacityFreedDuringAPassGoesToThePoolWhoseTurnItIs)
{
    DeferredQueue* queue = nullptr;
    DeferredQueue deferred(loop, store, [&](const store::DeferredUpdate& update, DeferredQueue::Next next) {
        if (recordOfferStartingB1(update, next))
            return;
        if (offered.size() == 2)
            // No room for s1 yet; room for one frees right after.
            queue->schedulePass();
        next(DeferredQueue::OfferOutcome::NotStarted);
    });
    queue = &deferred;

    deferred.schedulePass();

    ASSERT_TRUE(test::runLoopUntil(loop, [&] { return offered.size() >= 3; }));
    // The new pass begins with small's turn.
    EXPECT_EQ(std::vector<std::string>(offered.begin(), offered.begin() + 3),
              (std::vector<std::string>{"b1", "s1", "s1"}));
}

// The same, with the room freeing while the big pool's next request is
// still being looked up (the runtime answers asynchronously): that request
// learns that the pass no longer offers in turn, and leaves the room to the
// small pool.
TEST_F(DeferredQueueTest, AnOfferStillLookingUpWhenCapacityFreesLeavesTheRoomToThePoolWhoseTurnItIs)
{
    std::optional<bool> inTurnWhenB2Decided;
    EventSource lookup;
    DeferredQueue* queue = nullptr;
    DeferredQueue deferred(loop, store, [&](const store::DeferredUpdate& update, DeferredQueue::Next next) {
        if (recordOfferStartingB1(update, next))
            return;
        if (update.workload != "b2" || inTurnWhenB2Decided) {
            next(DeferredQueue::OfferOutcome::NotStarted);
            return;
        }
        lookup = loop.after(std::chrono::microseconds(0), [&, next] {
            inTurnWhenB2Decided = queue->offeringInTurn();
            next(DeferredQueue::OfferOutcome::NotStarted);
        });
        // Room for one frees while b2 is looked up.
        queue->schedulePass();
    });
    queue = &deferred;

    deferred.schedulePass();

    ASSERT_TRUE(test::runLoopUntil(loop, [&] { return offered.size() >= 4; }));
    ASSERT_TRUE(inTurnWhenB2Decided.has_value());
    EXPECT_FALSE(*inTurnWhenB2Decided);
    EXPECT_EQ(std::vector<std::string>(offered.begin(), offered.begin() + 4),
              (std::vector<std::string>{"b1", "s1", "b2", "s1"}));
}

}  // namespace
}  // namespace resized::service
