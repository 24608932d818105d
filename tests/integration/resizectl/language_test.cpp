// resizectl speaks Podman's and systemd's language: the same flags as
// `podman update` write the same cgroup values, systemd's assignments write
// what `systemctl set-property` would, and `list` shows the containers
// resized does not manage with the limits their cgroups hold.

#include <cmath>
#include <iterator>
#include <regex>
#include <sstream>

#include <unistd.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "lax_bus_policy.h"
#include "resizectl_fixture.h"
#include "scoped_system_account.h"
#include "support/cgroup_v1.h"

namespace resized::ctl {
namespace {

using integration::CgroupV1;
using integration::ScopedContainer;
using ::testing::HasSubstr;
using ::testing::Not;

constexpr uint64_t kMiB = 1ull << 20;
constexpr uint64_t kGiB = 1ull << 30;
// cgroup v1 shows "no memory limit" as the largest page-aligned counter.
constexpr int64_t kNoMemoryLimitAbove = 1ll << 62;

// The cgroup v1 files a `podman update` with these flags writes.
struct CgroupLimits {
    std::string cfsQuota;
    std::string cfsPeriod;
    std::string memoryLimit;
    std::string cpuShares;
    std::string cpusetCpus;

    bool operator==(const CgroupLimits&) const = default;
};

CgroupLimits readLimits(const ScopedContainer& container)
{
    const CgroupV1 cgroup(container.cgroupPath());
    return {cgroup.read("cpu", "cpu.cfs_quota_us"), cgroup.read("cpu", "cpu.cfs_period_us"),
            cgroup.read("memory", "memory.limit_in_bytes"), cgroup.read("cpu", "cpu.shares"),
            cgroup.read("cpuset", "cpuset.cpus")};
}

void PrintTo(const CgroupLimits& limits, std::ostream* out)
{
    *out << "{quota " << limits.cfsQuota << ", period " << limits.cfsPeriod << ", memory " << limits.memoryLimit
         << ", shares " << limits.cpuShares << ", cpuset " << limits.cpusetCpus << "}";
}

// The row of `resizectl list --no-legend` for `name`, split into its cells.
std::vector<std::string> listRow(const std::string& listing, const std::string& name)
{
    std::istringstream lines(listing);
    for (std::string line; std::getline(lines, line);) {
        std::istringstream words(line);
        std::vector<std::string> cells{std::istream_iterator<std::string>(words), {}};
        if (!cells.empty() && cells.front() == name)
            return cells;
    }
    return {};
}

const nlohmann::json* findListed(const nlohmann::json& listing, const std::string& name)
{
    for (const auto& entry : listing)
        if (entry["Name"] == name)
            return &entry;
    return nullptr;
}

TEST_F(ResizectlTest, PodmanFlagsWriteWhatPodmanUpdateWrites)
{
    const ScopedContainer byPodman(podman(), containerName("podman"));
    const ScopedContainer byResizectl(podman(), containerName("resizectl"));
    // cpu-shares 1024 is the one value both sides write alike on cgroup v1:
    // crun's curve gives weight 100, which resized writes back as 1024
    // shares; podman update on v1 writes the shares as they are.
    const std::vector<std::vector<std::string>> flagSets{
        {"--cpus", "1.5", "--memory", "256m", "--cpuset-cpus", "0", "--cpu-shares", "1024"},
        {"--cpus", "0.25", "--memory", "1.5g", "--cpuset-cpus", "0-1"},
        {"--cpus", "1", "-m", "300M"},
    };

    // resizectl goes first: the daemon admits its change against what the
    // node has allocated, which includes what podman update gave the other.
    for (const auto& flags : flagSets) {
        // podman update tells resized nothing; a full pass makes it count
        // what the other container's cgroup holds now.
        ASSERT_EQ(resizectl({"reconcile"}).exitStatus, 0);
        std::vector<std::string> resizectlSet{"set", byResizectl.name()};
        resizectlSet.insert(resizectlSet.end(), flags.begin(), flags.end());
        const auto resizectlResult = resizectl(resizectlSet);
        ASSERT_EQ(resizectlResult.exitStatus, 0) << resizectlResult.standardError;
        std::vector<std::string> podmanUpdate{"update"};
        podmanUpdate.insert(podmanUpdate.end(), flags.begin(), flags.end());
        podmanUpdate.push_back(byPodman.name());
        const auto podmanResult = podman().run(podmanUpdate);
        ASSERT_EQ(podmanResult.exitStatus, 0) << podmanResult.standardError;

        EXPECT_EQ(readLimits(byResizectl), readLimits(byPodman)) << ::testing::PrintToString(flags);
    }
}

TEST_F(ResizectlTest, CpuSharesAreSentAsTheWeightCrunGivesThem)
{
    const ScopedContainer container(podman(), containerName());

    ASSERT_EQ(resizectl({"set", container.name(), "--cpu-shares", "512"}).exitStatus, 0);

    const auto status = resizectlJson({"status", container.name()})[0];
    EXPECT_EQ(status["Desired"]["CpuWeight"], 59u);
    EXPECT_EQ(status["Actual"]["CpuWeight"], 59u);
}

// systemd is not PID 1 here, so there is no systemctl set-property to
// compare with; the values are those systemd's documented parsing gives
// (systemd.resource-control(5)) and that systemd writes on cgroup v1:
// CPUQuota= per 100 ms period, CPUWeight= as weight × 1024 / 100 shares.
TEST_F(ResizectlTest, SystemdAssignmentsWriteWhatSetPropertyWould)
{
    const ScopedContainer container(podman(), containerName());
    const CgroupV1 cgroup(container.cgroupPath());

    const auto result = resizectl({"set", container.name(), "CPUQuota=150%", "MemoryMax=1G", "MemoryHigh=512M",
                                   "CPUWeight=200", "AllowedCPUs=0"});

    ASSERT_EQ(result.exitStatus, 0) << result.standardError;
    EXPECT_EQ(cgroup.readNumber("cpu", "cpu.cfs_period_us"), 100'000);
    EXPECT_EQ(cgroup.readNumber("cpu", "cpu.cfs_quota_us"), 150'000);
    EXPECT_EQ(cgroup.readNumber("memory", "memory.limit_in_bytes"), static_cast<int64_t>(kGiB));
    EXPECT_EQ(cgroup.readNumber("memory", "memory.soft_limit_in_bytes"), static_cast<int64_t>(512 * kMiB));
    EXPECT_EQ(cgroup.readNumber("cpu", "cpu.shares"), 2048);
    EXPECT_EQ(cgroup.read("cpuset", "cpuset.cpus"), "0");
}

TEST_F(ResizectlTest, EmptyAndInfinityAssignmentsRemoveTheLimits)
{
    const ScopedContainer container(podman(), containerName(), {"--cpus", "0.5", "--memory", "200m"});
    const CgroupV1 cgroup(container.cgroupPath());

    const auto result = resizectl({"set", container.name(), "CPUQuota=", "MemoryMax=infinity", "MemoryHigh="});

    ASSERT_EQ(result.exitStatus, 0) << result.standardError;
    EXPECT_EQ(cgroupCpuMillis(container), std::nullopt);
    EXPECT_GT(cgroup.readNumber("memory", "memory.limit_in_bytes"), kNoMemoryLimitAbove);
    EXPECT_GT(cgroup.readNumber("memory", "memory.soft_limit_in_bytes"), kNoMemoryLimitAbove);
}

TEST_F(ResizectlTest, BadAssignmentsChangeNothing)
{
    const ScopedContainer container(podman(), containerName());
    ASSERT_EQ(resizectl({"set", container.name(), "--cpus", "500m"}).exitStatus, 0);

    // Unreadable: a usage error before the daemon is asked.
    const auto unreadable = resizectl({"set", container.name(), "CPUQuota=fast", "MemoryMax=64M"});
    EXPECT_EQ(unreadable.exitStatus, 2) << unreadable.standardError;
    // Readable but out of the daemon's range: invalid argument.
    const auto outOfRange = resizectl({"set", container.name(), "CPUQuota=0%", "MemoryMax=64M"});
    EXPECT_EQ(outOfRange.exitStatus, 4) << outOfRange.standardError;
    EXPECT_THAT(outOfRange.standardError, ::testing::StartsWith("resizectl: "));

    EXPECT_EQ(cgroupCpuMillis(container), 500u);
    EXPECT_NE(cgroupMemoryLimit(container), 64 * kMiB);
}

TEST_F(ResizectlTest, ListShowsAnUnmanagedContainerWithTheLimitsItsCgroupHolds)
{
    const ScopedContainer managed(podman(), containerName("managed"));
    const ScopedContainer unmanaged(podman(), containerName("unmanaged"), {"--cpus", "0.5", "--memory", "100m"});
    ASSERT_EQ(resizectl({"set", managed.name(), "--cpu", "250m"}).exitStatus, 0);
    // A change by hand is what the cgroup holds from then on, whatever
    // Podman's configuration says.
    ASSERT_EQ(podman().run({"update", "--memory", "120m", unmanaged.name()}).exitStatus, 0);

    const auto text = resizectl({"list", "--no-legend"});
    ASSERT_EQ(text.exitStatus, 0) << text.standardError;
    EXPECT_THAT(listRow(text.standardOutput, unmanaged.name()),
                ::testing::ElementsAre(unmanaged.name(), "no", "running", "-", "-", "500m", "120Mi"));
    EXPECT_THAT(listRow(text.standardOutput, managed.name()),
                ::testing::ElementsAre(managed.name(), "yes", "running", "synchronized", "success", "250m", "max"));

    const auto listing = resizectlJson({"list"});
    const auto* entry = findListed(listing, unmanaged.name());
    ASSERT_NE(entry, nullptr) << listing.dump();
    EXPECT_EQ((*entry)["Managed"], false);
    EXPECT_EQ((*entry)["Kind"], "container");
    EXPECT_EQ((*entry)["RunState"], "running");
    EXPECT_FALSE(entry->contains("SyncState")) << entry->dump();
    EXPECT_EQ((*entry)["Actual"]["CpuMillis"], 500u);
    EXPECT_EQ((*entry)["Actual"]["MemoryMax"], 120 * kMiB);
    ASSERT_NE(findListed(listing, managed.name()), nullptr);
    EXPECT_EQ((*findListed(listing, managed.name()))["Managed"], true);
}

TEST_F(ResizectlTest, ListManagedLeavesOutTheOthers)
{
    const ScopedContainer managed(podman(), containerName("managed"));
    const ScopedContainer unmanaged(podman(), containerName("unmanaged"));
    ASSERT_EQ(resizectl({"set", managed.name(), "--cpu", "250m"}).exitStatus, 0);

    const auto result = resizectl({"list", "--managed", "--no-legend"});

    ASSERT_EQ(result.exitStatus, 0) << result.standardError;
    EXPECT_FALSE(listRow(result.standardOutput, managed.name()).empty()) << result.standardOutput;
    EXPECT_TRUE(listRow(result.standardOutput, unmanaged.name()).empty()) << result.standardOutput;
}

// A stopped container holds no limits: listed, but none shown as in force.
TEST_F(ResizectlTest, ListShowsAStoppedContainerWithoutLimits)
{
    const ScopedContainer container(podman(), containerName(), {"--cpus", "0.5"});
    ASSERT_TRUE(daemon().waitForStartEvent(container.name()));
    ASSERT_EQ(podman().run({"stop", "-t", "0", container.name()}).exitStatus, 0);

    const auto text = resizectl({"list", "--no-legend"});

    ASSERT_EQ(text.exitStatus, 0) << text.standardError;
    EXPECT_THAT(listRow(text.standardOutput, container.name()),
                ::testing::ElementsAre(container.name(), "no", "stopped", "-", "-", "-", "-"));
}

// A member of the group that may change limits is no root: it cannot reach
// Podman's socket, and need not, as the daemon lists the node.
TEST_F(ResizectlTest, ListOfAChangeGroupMemberShowsUnmanagedContainers)
{
    const ScopedContainer managed(podman(), containerName("m"));
    const ScopedContainer unmanaged(podman(), containerName("u"), {"--cpus", "0.5", "--memory", "100m"});
    ASSERT_EQ(resizectl({"set", managed.name(), "--cpu", "250m"}).exitStatus, 0);

    integration::CommandResult text;
    {
        const integration::ScopedSystemAccount member("rzl-list-" + std::to_string(::getpid()), "resized",
                                                      environment().directory / "system-accounts");
        // dbus-daemon resolves the groups of its policy when it reads it.
        integration::reloadBusConfiguration();
        text = integration::runCommand(
            {"runuser", "-u", member.user(), "--", RESIZECTL_BINARY, "list", "--no-legend"});
    }
    // So that the bus's policy keeps no GID of a group removed.
    integration::reloadBusConfiguration();
    ASSERT_EQ(text.exitStatus, 0) << text.standardError;
    EXPECT_EQ(text.standardError, "");
    EXPECT_THAT(listRow(text.standardOutput, unmanaged.name()),
                ::testing::ElementsAre(unmanaged.name(), "no", "running", "-", "-", "500m", "100Mi"));
    EXPECT_THAT(listRow(text.standardOutput, managed.name()),
                ::testing::ElementsAre(managed.name(), "yes", "running", "synchronized", "success", "250m", "max"));
}

// "23.3Gi": a number below 1024 and a binary unit, that multiplied out is
// within rounding of the exact bytes --json shows.
void expectHumanMemory(const std::string& shown, uint64_t bytes)
{
    static const std::regex kHuman(R"(([0-9]+(\.[0-9])?)(Ki|Mi|Gi|Ti))");
    std::smatch match;
    ASSERT_TRUE(std::regex_match(shown, match, kHuman)) << shown;
    const double number = std::stod(match[1]);
    const std::string units = "KMGT";
    const double size = std::pow(1024.0, static_cast<double>(units.find(match.str(3).front()) + 1));
    EXPECT_LT(number, 1024.0) << shown;
    EXPECT_NEAR(number * size, static_cast<double>(bytes), 0.05 * size) << shown << " for " << bytes;
}

TEST_F(ResizectlTest, NodeShowsMemoryInHumanUnitsAndJsonInBytes)
{
    const auto properties = resizectlJson({"node"});
    const auto text = resizectl({"node", "--no-legend"});
    ASSERT_EQ(text.exitStatus, 0) << text.standardError;

    const auto memory = listRow(text.standardOutput, "memory");
    ASSERT_EQ(memory.size(), 5u) << text.standardOutput;
    expectHumanMemory(memory[1], properties["MemoryCapacity"].get<uint64_t>());
    EXPECT_THAT(text.standardOutput, Not(::testing::ContainsRegex("[0-9]{5,}Ki")));
}

TEST_F(ResizectlTest, StatusShowsMemoryInHumanUnits)
{
    const ScopedContainer container(podman(), containerName());
    ASSERT_EQ(resizectl({"set", container.name(), "--memory", "1536Mi"}).exitStatus, 0);

    const auto block = resizectl({"status", container.name()});
    ASSERT_EQ(block.exitStatus, 0) << block.standardError;
    EXPECT_THAT(block.standardOutput, ::testing::ContainsRegex("Actual: [^\n]*memory.max=1.5Gi"));

    const auto table = resizectl({"status", "--no-legend"});
    ASSERT_EQ(table.exitStatus, 0) << table.standardError;
    EXPECT_EQ(listRow(table.standardOutput, container.name()).back(), "1.5Gi");
    EXPECT_EQ(resizectlJson({"status", container.name()})[0]["Actual"]["MemoryMax"], 1536 * kMiB);
}

}  // namespace
}  // namespace resized::ctl
