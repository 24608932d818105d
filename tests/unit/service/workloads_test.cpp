// The Workloads registry (design.md §1c, one owner per workload): a change
// set makes each of its workloads busy until it ends, the requests asked
// meanwhile wait in order, and a workload that holds nothing has no object.

#include "service/workloads/workload.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <variant>
#include <vector>

namespace resized::service {
namespace {

std::unique_ptr<ChangeSet> changeOf(const std::vector<std::string>& names)
{
    auto set = std::make_unique<ChangeSet>();
    for (const auto& name : names) {
        WorkloadChange& item = set->items.emplace_back();
        item.record.name = name;
    }
    return set;
}

QueuedUpdate updateAsking(uint64_t cpuMillis)
{
    return {core::Resources{.cpuMillis = cpuMillis}, {}, Actor::caller(0), [](const UpdateResult&) {}};
}

TEST(Workloads, AChangeSetMakesEachOfItsWorkloadsBusyUntilItEnds)
{
    Workloads workloads;
    ChangeSet& plan = workloads.begin(changeOf({"a", "b"}));

    EXPECT_TRUE(workloads.busy("a"));
    EXPECT_TRUE(workloads.busy("b"));
    EXPECT_FALSE(workloads.busy("c"));
    EXPECT_EQ(workloads.find("a")->change(), &plan);
    EXPECT_EQ(workloads.changeSet(plan.id), &plan);

    const auto ended = workloads.end(plan.id);
    EXPECT_EQ(ended.get(), &plan);
    EXPECT_FALSE(workloads.busy("a"));
    EXPECT_FALSE(workloads.busy("b"));
    EXPECT_EQ(workloads.changeSet(ended->id), nullptr);
}

TEST(Workloads, EachChangeSetHasAnIdOfItsOwn)
{
    Workloads workloads;
    const uint64_t first = workloads.begin(changeOf({"a"})).id;
    const uint64_t second = workloads.begin(changeOf({"b"})).id;

    EXPECT_NE(first, second);
    workloads.end(first);
    EXPECT_FALSE(workloads.busy("a"));
    EXPECT_TRUE(workloads.busy("b"));
}

TEST(Workloads, RequestsWaitInTheOrderAskedAndKeepTheObject)
{
    Workloads workloads;
    const uint64_t id = workloads.begin(changeOf({"a"})).id;
    workloads["a"].enqueue(updateAsking(100));
    workloads["a"].enqueue(QueuedForget{.callerUid = 7, .startedAtUsec = 0, .done = {}});
    workloads.end(id);

    // Released only once it holds nothing: the requests still wait.
    workloads.release("a");
    ASSERT_NE(workloads.find("a"), nullptr);
    auto first = workloads["a"].dequeue();
    ASSERT_TRUE(first);
    EXPECT_EQ(std::get<QueuedUpdate>(*first).request.cpuMillis, 100u);
    auto second = workloads["a"].dequeue();
    ASSERT_TRUE(second);
    EXPECT_EQ(std::get<QueuedForget>(*second).callerUid, 7u);
    EXPECT_FALSE(workloads["a"].dequeue());

    workloads.release("a");
    EXPECT_EQ(workloads.find("a"), nullptr);
}

TEST(Workloads, ABusyWorkloadIsNeverDropped)
{
    Workloads workloads;
    workloads.begin(changeOf({"a"}));

    workloads.release("a");

    ASSERT_NE(workloads.find("a"), nullptr);
    EXPECT_TRUE(workloads.busy("a"));
}

}  // namespace
}  // namespace resized::service
