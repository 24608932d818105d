// `resizectl list` shows the containers resized does not manage with the
// limits their cgroups hold, and memory is shown in units people read.

#include <cmath>
#include <iterator>
#include <regex>
#include <sstream>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "resizectl_fixture.h"

namespace resized::ctl {
namespace {

using integration::ScopedContainer;
using ::testing::HasSubstr;
using ::testing::Not;

constexpr uint64_t kMiB = 1ull << 20;

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
        if (entry["Workload"] == name)
            return &entry;
    return nullptr;
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
                ::testing::ElementsAre(unmanaged.name(), "no", "unknown", "unknown", "500m", "120Mi"));
    EXPECT_THAT(listRow(text.standardOutput, managed.name()),
                ::testing::ElementsAre(managed.name(), "yes", "synchronized", "success", "250m", "max"));

    const auto listing = resizectlJson({"list"});
    const auto* entry = findListed(listing, unmanaged.name());
    ASSERT_NE(entry, nullptr) << listing.dump();
    EXPECT_EQ((*entry)["Managed"], false);
    EXPECT_EQ((*entry)["ContainerId"], unmanaged.id());
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

TEST_F(ResizectlTest, ListWithoutPodmanShowsTheManagedAndSaysWhatIsMissing)
{
    const ScopedContainer managed(podman(), containerName());
    ASSERT_EQ(resizectl({"set", managed.name(), "--cpu", "250m"}).exitStatus, 0);

    const auto socket = (environment().directory / "no-podman-here.sock").string();
    const auto result = resizectl({"list", "--podman-socket", socket});

    EXPECT_EQ(result.exitStatus, 0) << result.standardError;
    EXPECT_THAT(result.standardError,
                ::testing::StartsWith("resizectl: containers resized does not manage could not be listed: "));
    EXPECT_THAT(result.standardError, HasSubstr(socket));
    EXPECT_FALSE(listRow(result.standardOutput, managed.name()).empty()) << result.standardOutput;
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
