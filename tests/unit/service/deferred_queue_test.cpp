#include "service/deferred_queue.h"

#include <gtest/gtest.h>

#include <optional>

#include "run_loop.h"
#include "temp_directory.h"

// The order in which freed capacity is offered to waiting requests.
namespace resized::service {
namespace {

// Waiting updates, oldest first, as "pool/workload" ("/n1": no pool).
std::vector<WaitingRequest> waiting(const std::vector<std::string>& entries)
{
    std::vector<WaitingRequest> result;
    for (const auto& entry : entries) {
        const auto slash = entry.find('/');
        store::DeferredUpdate update;
        update.workload = entry.substr(slash + 1);
        result.push_back({std::move(update), entry.substr(0, slash), result.size()});
    }
    return result;
}

// An update by its workload, a plan as "plan N".
std::string nameOf(const std::variant<store::DeferredUpdate, WaitingPlanId>& request)
{
    if (const auto* update = std::get_if<store::DeferredUpdate>(&request))
        return update->workload;
    return "plan " + std::to_string(std::get<WaitingPlanId>(request).id);
}

std::vector<std::string> workloads(const std::vector<WaitingRequest>& order)
{
    std::vector<std::string> names;
    for (const auto& entry : order)
        names.push_back(nameOf(entry.request));
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

TEST(RoundRobinByPool, OrdersAPoolsRequestsByHowLongTheyWait)
{
    auto requests = waiting({"p/a", "p/b"});
    requests.push_back({WaitingPlanId{7}, "p", 0});
    requests[0].sinceUsec = 5;

    EXPECT_EQ(workloads(roundRobinByPool(requests, "")), (std::vector<std::string>{"plan 7", "b", "a"}));
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

// Plans that wait with Defer, in a fixed list.
class ListedPlans final : public WaitingPlans {
public:
    explicit ListedPlans(std::vector<store::PlanRecord> plans) : plans_(std::move(plans)) {}
    std::vector<store::PlanRecord> waitingPlans() override { return plans_; }
    void offerPlan(int64_t id, DeferredQueue::Next next) override { offer(id, std::move(next)); }

    std::function<void(int64_t, DeferredQueue::Next)> offer;

private:
    std::vector<store::PlanRecord> plans_;
};

// A plan that waits in the small pool takes the small pool's turn, between
// the big pool's updates, as a deferred update of the small pool would; a
// plan that only lowers goes first, with the decreases.
TEST_F(DeferredQueueTest, WaitingPlansTakeTheirPoolsTurnsAndThoseThatOnlyLowerGoFirst)
{
    store::WorkloadRecord shrinking{.name = "shrinking"};
    shrinking.desired.cpuMillis = 500;
    shrinking.allocated.cpuMillis = 500;
    store.save(shrinking);
    store::WorkloadRecord small{.name = "s2"};
    small.poolLabel = "small";
    store.save(small);
    store.removeDeferred("s1");
    store::PlanRecord growsInSmall{.id = 1};
    growsInSmall.changes = {{"shrinking", core::Resources{.cpuMillis = 100}}, {"s2", core::Resources{.cpuMillis = 100}}};
    store::PlanRecord onlyLowers{.id = 2};
    onlyLowers.changes = {{"shrinking", core::Resources{.cpuMillis = 200}}};
    ListedPlans plans({growsInSmall, onlyLowers});
    plans.offer = [&](int64_t id, const DeferredQueue::Next& next) {
        offered.push_back("plan " + std::to_string(id));
        next(DeferredQueue::OfferOutcome::NotStarted);
    };
    DeferredQueue deferred(loop, store, [&](const store::DeferredUpdate& update, const DeferredQueue::Next& next) {
        offered.push_back(update.workload);
        next(DeferredQueue::OfferOutcome::NotStarted);
    });
    deferred.setWaitingPlans(&plans);

    deferred.schedulePass();

    ASSERT_TRUE(test::runLoopUntil(loop, [&] { return offered.size() >= 4; }));
    EXPECT_EQ(offered, (std::vector<std::string>{"plan 2", "b1", "plan 1", "b2"}));
}

}  // namespace
}  // namespace resized::service
