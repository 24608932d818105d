// resizectl's verbs doing their job: the limits end up in the container's
// cgroup, and what resizectl shows is what the cgroup holds.

#include <fstream>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/cpuset.h"
#include "resizectl_fixture.h"
#include "support/cgroup_v1.h"
#include "support/host_cpus.h"
#include "support/wait.h"

namespace resized::ctl {
namespace {

using integration::ScopedContainer;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;
using namespace std::chrono_literals;

constexpr uint64_t kMiB = 1ull << 20;

TEST_F(ResizectlTest, SetWritesTheCgroupAndPrintsTheResultingStatus)
{
    const ScopedContainer container(podman(), containerName());

    const auto result = resizectl({"set", container.name(), "--cpu", "500m", "--memory", "64Mi"});

    ASSERT_EQ(result.exitStatus, 0) << result.standardError;
    EXPECT_EQ(cgroupCpuMillis(container), 500u);
    EXPECT_EQ(cgroupMemoryLimit(container), 64 * kMiB);
    EXPECT_THAT(result.standardOutput, StartsWith("● " + container.name() + "\n"));
    EXPECT_THAT(result.standardOutput, HasSubstr("Desired: cpu=500m memory.max=64Mi\n"));
}

TEST_F(ResizectlTest, StatusShowsWhatTheCgroupHolds)
{
    const ScopedContainer container(podman(), containerName());
    ASSERT_EQ(resizectl({"set", container.name(), "--cpu", "1.5", "--memory", "128Mi"}).exitStatus, 0);

    const auto result = resizectl({"status", container.name()});

    ASSERT_EQ(result.exitStatus, 0) << result.standardError;
    EXPECT_THAT(result.standardOutput, HasSubstr("Actual: cpu=1500m memory.max=128Mi"));
    EXPECT_THAT(result.standardOutput, HasSubstr("Sync state: synchronized\n"));
    EXPECT_THAT(result.standardOutput, HasSubstr("Container: " + container.id() + "\n"));
}

TEST_F(ResizectlTest, JsonStatusUsesTheContractKeysAndExactNumbers)
{
    const ScopedContainer container(podman(), containerName());
    ASSERT_EQ(resizectl({"set", container.name(), "--cpu", "250m", "--memory", "max"}).exitStatus, 0);

    const auto statuses = resizectlJson({"status", container.name()});

    ASSERT_EQ(statuses.size(), 1u);
    const auto& status = statuses[0];
    EXPECT_EQ(status["Workload"], container.name());
    EXPECT_EQ(status["ContainerId"], container.id());
    EXPECT_EQ(status["Desired"]["CpuMillis"], 250u);
    EXPECT_EQ(status["Desired"]["MemoryMax"].get<uint64_t>(), UINT64_MAX);
    EXPECT_EQ(status["Actual"]["CpuMillis"], 250u);
    EXPECT_TRUE(status["UpdatedAtUSec"].is_number_unsigned());
}

TEST_F(ResizectlTest, AContainerIdNamesItsWorkload)
{
    const ScopedContainer container(podman(), containerName());

    const auto result = resizectl({"set", container.id().substr(0, 12), "--cpu", "300m"});

    ASSERT_EQ(result.exitStatus, 0) << result.standardError;
    EXPECT_EQ(cgroupCpuMillis(container), 300u);
    EXPECT_THAT(result.standardOutput, StartsWith("● " + container.name() + "\n"));
}

// The status block up to its Updated line, whose time varies.
std::string statusBeforeUpdated(const std::string& block)
{
    return block.substr(0, block.find("         Updated: "));
}

// design.md §1c: the run state, and never "synchronized" while the limits
// read now differ from the desired ones.
TEST_F(ResizectlTest, StatusShowsTheRunStateAndDriftMadeBehindResizedsBack)
{
    const ScopedContainer container(podman(), containerName());
    ASSERT_TRUE(daemon().waitForStartEvent(container.name()));
    ASSERT_EQ(resizectl({"set", container.name(), "--cpus", "0.7"}).exitStatus, 0);
    ASSERT_EQ(podman().run({"update", "--cpus", "0.2", container.name()}).exitStatus, 0);

    const auto drifted = resizectl({"status", container.name()});

    ASSERT_EQ(drifted.exitStatus, 0) << drifted.standardError;
    EXPECT_EQ(statusBeforeUpdated(drifted.standardOutput),
              "● " + container.name() + "\n" +
              "           State: running\n"
              "       Container: " + container.id() + "\n" +
              "          Cgroup: " + container.cgroupPath().string() + "\n" +
              "          Driver: cgroupfs-v1\n"
              "         Desired: cpu=700m\n"
              "          Actual: cpu=200m memory.max=max memory.high=max cpu.weight=100 cpus=all\n"
              "      Sync state: drift_detected\n"
              "    Update state: success\n"
              "      Generation: 1 (observed 1)\n");
    EXPECT_THAT(drifted.standardOutput, ::testing::MatchesRegex(".*\n         Updated: .*; [0-9]+m?s ago\n"));
    const auto list = resizectl({"list", "--no-legend"});
    EXPECT_THAT(list.standardOutput,
                ::testing::ContainsRegex(container.name() + " +yes +running +drift_detected +success +200m +max\n"));

    ASSERT_EQ(podman().run({"stop", "-t", "0", container.name()}).exitStatus, 0);
    const auto stopped = resizectl({"status", container.name()});
    ASSERT_EQ(stopped.exitStatus, 0) << stopped.standardError;
    EXPECT_THAT(stopped.standardOutput, HasSubstr("           State: stopped\n"));
    EXPECT_THAT(stopped.standardOutput, HasSubstr("          Actual: none in force (stopped)\n"));
    EXPECT_THAT(stopped.standardOutput, Not(HasSubstr("Cgroup:")));
}

TEST_F(ResizectlTest, ListAndStatusTableNameEveryWorkload)
{
    const ScopedContainer first(podman(), containerName("a"));
    const ScopedContainer second(podman(), containerName("b"));
    ASSERT_EQ(resizectl({"set", first.name(), "--cpu", "200m"}).exitStatus, 0);
    ASSERT_EQ(resizectl({"set", second.name(), "--memory", "96Mi"}).exitStatus, 0);

    const auto list = resizectl({"list", "--no-legend"});
    ASSERT_EQ(list.exitStatus, 0) << list.standardError;
    EXPECT_THAT(list.standardOutput, HasSubstr(first.name() + " "));
    EXPECT_THAT(list.standardOutput, HasSubstr(second.name() + " "));
    EXPECT_THAT(list.standardOutput, Not(HasSubstr("NAME")));

    const auto table = resizectl({"status"});
    ASSERT_EQ(table.exitStatus, 0) << table.standardError;
    EXPECT_THAT(table.standardOutput, StartsWith("NAME "));
    EXPECT_THAT(table.standardOutput, HasSubstr("96Mi"));
    EXPECT_THAT(table.standardOutput, HasSubstr("200m"));
}

TEST_F(ResizectlTest, DryRunChangesNothing)
{
    const ScopedContainer container(podman(), containerName());
    ASSERT_EQ(resizectl({"set", container.name(), "--cpu", "400m"}).exitStatus, 0);

    const auto result = resizectl({"set", container.name(), "--cpu", "700m", "--dry-run"});

    ASSERT_EQ(result.exitStatus, 0) << result.standardError;
    EXPECT_EQ(cgroupCpuMillis(container), 400u);
}

TEST_F(ResizectlTest, ValidateAllowsWhatFits)
{
    const ScopedContainer container(podman(), containerName());

    const auto result = resizectl({"validate", container.name(), "--cpu", "100m", "--memory", "32Mi"});

    EXPECT_EQ(result.exitStatus, 0) << result.standardError;
    EXPECT_EQ(result.standardOutput, "allowed\n");
    EXPECT_EQ(cgroupCpuMillis(container), std::nullopt);
}

TEST_F(ResizectlTest, ReconcileRepairsALimitChangedBehindTheDaemonsBack)
{
    // The daemon hears of the start from Podman's event stream a moment after
    // `podman run` returns, and re-applies the desired state then; a drift
    // made before that would be repaired without reconcile.
    const ScopedContainer container(podman(), containerName(), {"--cpus", "0.1"});
    ASSERT_TRUE(daemon().waitForStartEvent(container.name()));
    ASSERT_EQ(resizectl({"set", container.name(), "--cpu", "500m"}).exitStatus, 0);
    const integration::CgroupV1 cgroup(container.cgroupPath());
    std::ofstream quota(cgroup.file("cpu", "cpu.cfs_quota_us"));
    quota << cgroup.readNumber("cpu", "cpu.cfs_period_us") / 5 << std::flush;
    ASSERT_TRUE(quota.good());
    ASSERT_EQ(cgroupCpuMillis(container), 200u);

    const auto result = resizectl({"reconcile", container.name()});

    ASSERT_EQ(result.exitStatus, 0) << result.standardError;
    EXPECT_TRUE(integration::waitUntil([&] { return cgroupCpuMillis(container) == 500u; }, 10s));
}

// Forgotten, the container counts as unmanaged: at what its cgroup holds.
TEST_F(ResizectlTest, ForgetKeepsTheLimitsInForceAndCountsThem)
{
    const ScopedContainer container(podman(), containerName());
    const auto allocatedBefore = resizectlJson({"node"})["CpuAllocatedMillis"].get<uint64_t>();
    ASSERT_EQ(resizectl({"set", container.name(), "--cpu", "600m"}).exitStatus, 0);

    const auto result = resizectl({"forget", container.name()});

    ASSERT_EQ(result.exitStatus, 0) << result.standardError;
    EXPECT_EQ(cgroupCpuMillis(container), 600u);
    EXPECT_EQ(resizectlJson({"node"})["CpuAllocatedMillis"].get<uint64_t>(), allocatedBefore + 600);
    // Status works for containers resized does not manage: the forgotten
    // one shows what its cgroup holds, with no desired state.
    const auto statuses = resizectlJson({"status", container.name()});
    ASSERT_EQ(statuses.size(), 1u);
    EXPECT_FALSE(statuses[0]["Desired"].contains("CpuMillis")) << statuses[0];
    EXPECT_EQ(statuses[0]["SyncState"], "unknown");
    EXPECT_EQ(statuses[0]["Actual"]["CpuMillis"], 600u);
}

TEST_F(ResizectlTest, HistoryShowsEachCallNewestFirstAlsoAfterForget)
{
    const ScopedContainer container(podman(), containerName());
    ASSERT_EQ(resizectl({"set", container.name(), "--cpu", "300m"}).exitStatus, 0);
    ASSERT_EQ(resizectl({"set", container.name(), "--memory", "96Mi"}).exitStatus, 0);
    ASSERT_EQ(resizectl({"forget", container.name()}).exitStatus, 0);

    const auto table = resizectl({"history", container.name()});

    ASSERT_EQ(table.exitStatus, 0) << table.standardError;
    EXPECT_THAT(table.standardOutput, StartsWith("TIME "));
    EXPECT_THAT(table.standardOutput, HasSubstr("\n3 calls listed.\n"));
    const auto forget = table.standardOutput.find(" forget ");
    const auto memory = table.standardOutput.find("memory.max=96Mi");
    const auto cpu = table.standardOutput.find("cpu=300m");
    ASSERT_NE(cpu, std::string::npos) << table.standardOutput;
    EXPECT_LT(forget, memory) << table.standardOutput;
    EXPECT_LT(memory, cpu) << table.standardOutput;

    const auto newest = resizectlJson({"history", container.name(), "-n", "1"});
    ASSERT_EQ(newest.size(), 1u) << newest;
    EXPECT_EQ(newest[0]["Operation"], "forget");
    EXPECT_EQ(newest[0]["Result"], "success");
    EXPECT_EQ(newest[0]["Workload"], container.name());
}

TEST_F(ResizectlTest, MetricsPrintTheDaemonsTextWithTheLimitSet)
{
    const ScopedContainer container(podman(), containerName());
    ASSERT_EQ(resizectl({"set", container.name(), "--cpu", "300m"}).exitStatus, 0);

    const auto metrics = resizectl({"metrics"});

    ASSERT_EQ(metrics.exitStatus, 0) << metrics.standardError;
    EXPECT_THAT(metrics.standardOutput, StartsWith("# HELP "));
    EXPECT_THAT(metrics.standardOutput, HasSubstr("resized_update_requests_total{result=\"success\"} 1\n"));
    EXPECT_THAT(metrics.standardOutput,
                HasSubstr("resized_workload_cpu_limit_millicores{workload=\"" + container.name() + "\"} 300\n"));
}

TEST_F(ResizectlTest, NodeShowsCapacityAndAllocation)
{
    const ScopedContainer container(podman(), containerName());
    const auto before = resizectlJson({"node"});
    ASSERT_EQ(resizectl({"set", container.name(), "--cpu", "300m"}).exitStatus, 0);

    const auto after = resizectlJson({"node"});

    EXPECT_EQ(after["CgroupVersion"], "v1");
    EXPECT_GT(after["CpuCapacityMillis"].get<uint64_t>(), 0u);
    EXPECT_EQ(after["CpuAllocatedMillis"].get<uint64_t>() - before["CpuAllocatedMillis"].get<uint64_t>(), 300u);
    const auto text = resizectl({"node"});
    ASSERT_EQ(text.exitStatus, 0) << text.standardError;
    EXPECT_THAT(text.standardOutput, HasSubstr("Cgroup version: v1\n"));
    EXPECT_THAT(text.standardOutput, HasSubstr("\ncpu "));
}

// Without a CPU manager policy every CPU the kernel has online is shared
// and none is reserved or exclusive.
TEST_F(ResizectlTest, NodeShowsTheCpuManager)
{
    const auto properties = resizectlJson({"node"});
    const auto text = resizectl({"node"});

    EXPECT_EQ(properties["CpuManagerPolicy"], "none");
    EXPECT_EQ(properties["NumaNodes"].get<unsigned>(), integration::numaNodesWithCpus());
    EXPECT_EQ(properties["SharedCpus"], integration::onlineCpuList());
    EXPECT_EQ(properties["ReservedCpus"], "");
    EXPECT_EQ(properties["ExclusiveCpuSet"], "");
    ASSERT_EQ(text.exitStatus, 0) << text.standardError;
    EXPECT_THAT(text.standardOutput,
                HasSubstr("   CPU manager: policy none\n"
                          "    NUMA nodes: " + std::to_string(integration::numaNodesWithCpus()) + "\n"
                          "   Shared CPUs: " + integration::onlineCpuList() + " (" +
                          std::to_string(core::parseCpuSet(integration::onlineCpuList())->size()) + " CPUs)\n"
                          " Reserved CPUs: -\n"
                          "Exclusive CPUs: -\n"));
}

}  // namespace
}  // namespace resized::ctl
