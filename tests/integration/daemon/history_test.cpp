// GetHistory: what callers asked of the workloads and how it ended, from the
// daemon's store, newest first, over the real bus.

#include "daemon_test.h"

#include "support/cgroup_v1.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <optional>
#include <string>
#include <vector>

namespace resized::integration
{
namespace
{

std::string textOf(const Dictionary& entry, const std::string& key)
{
    return entryOf<std::string>(entry, key);
}

class HistoryTest : public ManagedContainerTest
{};

TEST_F(HistoryTest, EachCallIsRecordedNewestFirstWithItsCallerAndOutcome)
{
    client().updateResources(name(), ResourceValues{.cpuMillis = 400});
    std::optional<sdbus::Error> refusal;
    try
    {
        client().updateResources(name(), ResourceValues{.cpuMillis = cpuCapacity() + 1});
    }
    catch (const sdbus::Error& error)
    {
        refusal = error;
    }
    ASSERT_TRUE(refusal) << "more CPU than the node has was applied";
    client().forget(name());

    const auto entries = client().getHistory(name(), 0);

    // The update that made it managed (SetUp), then the three calls above.
    ASSERT_EQ(entries.size(), 4U);
    EXPECT_EQ(textOf(entries[0], "Operation"), "forget");
    EXPECT_EQ(textOf(entries[0], "Result"), "success");
    EXPECT_EQ(textOf(entries[1], "Operation"), "update");
    EXPECT_EQ(textOf(entries[1], "Result"), "Infeasible");
    EXPECT_FALSE(textOf(entries[1], "Message").empty());
    EXPECT_EQ(textOf(entries[2], "Result"), "success");
    EXPECT_EQ(ResourceValues::fromDictionary(entryOf<Dictionary>(entries[2], "Request")),
              ResourceValues{.cpuMillis = 400});
    EXPECT_EQ(ResourceValues::fromDictionary(entryOf<Dictionary>(entries[3], "Request")), managed);
    for (std::size_t index = 0; index < entries.size(); ++index)
    {
        EXPECT_EQ(textOf(entries[index], "Workload"), name()) << index;
        EXPECT_EQ(textOf(entries[index], "Actor"), "uid:" + std::to_string(geteuid())) << index;
        if (index > 0)
        {
            EXPECT_GE(entryOf<std::uint64_t>(entries[index - 1], "TimeUSec"),
                      entryOf<std::uint64_t>(entries[index], "TimeUSec"))
                << index;
        }
    }
}

TEST_F(HistoryTest, AnEmptyNameMeansEveryWorkloadAndALimitKeepsTheNewest)
{
    const auto other = runContainer("other");
    client().updateResources(other.name(), ResourceValues{.cpuMillis = 200});

    const auto all = client().getHistory("", 0);
    ASSERT_EQ(all.size(), 2U);
    EXPECT_EQ(textOf(all[0], "Workload"), other.name());
    EXPECT_EQ(textOf(all[1], "Workload"), name());

    const auto newest = client().getHistory("", 1);
    ASSERT_EQ(newest.size(), 1U);
    EXPECT_EQ(textOf(newest[0], "Workload"), other.name());
    EXPECT_EQ(client().getHistory("container:" + name(), 0).size(), 1U);
    EXPECT_TRUE(client().getHistory("never-managed", 0).empty());
}

TEST_F(HistoryTest, ARepairOfDriftIsRecordedAsTheReconcilersWithWhatItWrote)
{
    // 200m, written as somebody other than resized would.
    std::ofstream(CgroupV1(container().cgroupPath()).file("cpu", "cpu.cfs_quota_us")) << "20000";
    client().reconcile(name());

    const auto entries = client().getHistory(name(), 0);

    ASSERT_EQ(entries.size(), 2U);
    EXPECT_EQ(textOf(entries[0], "Actor"), "reconcile");
    EXPECT_EQ(textOf(entries[0], "Operation"), "repair");
    EXPECT_EQ(textOf(entries[0], "Result"), "success");
    EXPECT_EQ(ResourceValues::fromDictionary(entryOf<Dictionary>(entries[0], "Request")).cpuMillis,
              managed.cpuMillis);
    EXPECT_EQ(textOf(entries[1], "Actor"), "uid:" + std::to_string(geteuid()));
}

TEST_F(HistoryTest, ANameOfNoKindOfWorkloadIsAnInvalidArgument)
{
    try
    {
        client().getHistory("pod:", 0);
        ADD_FAILURE() << "GetHistory(\"pod:\") answered";
    }
    catch (const sdbus::Error& error)
    {
        EXPECT_EQ(error.getName(), "io.resized1.Error.InvalidArgument") << error.getMessage();
    }
}

} // namespace
} // namespace resized::integration
