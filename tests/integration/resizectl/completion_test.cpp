// The bash completion, sourced into a real bash, completes the names of the
// workloads and containers the real daemon and Podman know.

#include <cstdlib>
#include <filesystem>
#include <sstream>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "resizectl_fixture.h"

namespace resized::ctl {
namespace {

using integration::ScopedContainer;
using ::testing::Contains;
using ::testing::IsSupersetOf;
using ::testing::UnorderedElementsAre;

// What bash offers at the end of `line`, one reply a word.
std::vector<std::string> complete(const std::string& line)
{
    const std::string binaryDirectory = std::filesystem::path(RESIZECTL_BINARY).parent_path();
    const std::string script = "source \"$1\"; COMP_LINE=\"$2\"; COMP_POINT=${#COMP_LINE}; _resizectl; "
                               "printf '%s\\n' \"${COMPREPLY[@]}\"";
    const auto result = integration::runCommand(
        {"bash", "-c", script, "bash", RESIZECTL_BASH_COMPLETION, line},
        {"PATH=" + binaryDirectory + ":" + std::getenv("PATH")});
    EXPECT_EQ(result.exitStatus, 0) << result.standardError;
    // bash reports a bad expansion and goes on; only stderr shows it.
    EXPECT_EQ(result.standardError, "") << line;
    std::vector<std::string> replies;
    std::istringstream lines(result.standardOutput);
    for (std::string reply; std::getline(lines, reply);)
        if (!reply.empty())
            replies.push_back(reply);
    return replies;
}

TEST_F(ResizectlTest, BashCompletesManagedAndUnmanagedWorkloadNames)
{
    const ScopedContainer managed(podman(), containerName("managed"));
    const ScopedContainer unmanaged(podman(), containerName("unmanaged"));
    ASSERT_EQ(resizectl({"set", managed.name(), "--cpus", "250m"}).exitStatus, 0);

    EXPECT_THAT(complete("resizectl set "), IsSupersetOf({managed.name(), unmanaged.name()}));
    EXPECT_THAT(complete("resizectl status " + managed.name().substr(0, managed.name().size() - 1)),
                Contains(managed.name()));
    EXPECT_THAT(complete("resizectl --json forget "), IsSupersetOf({managed.name(), unmanaged.name()}));
}

TEST_F(ResizectlTest, BashCompletesAssignmentsAndOptionsAfterTheWorkload)
{
    EXPECT_THAT(complete("resizectl set web CPU"), UnorderedElementsAre("CPUQuota=", "CPUWeight="));
    EXPECT_THAT(complete("resizectl set web --cpus 1.5 Memory"), UnorderedElementsAre("MemoryMax=", "MemoryHigh="));
    EXPECT_THAT(complete("resizectl set web CPUQuota=1"), UnorderedElementsAre("100%", "150%"));
    EXPECT_THAT(complete("resizectl validate web --cpuset"), UnorderedElementsAre("--cpuset-cpus"));
    EXPECT_THAT(complete("resizectl list --ma"), UnorderedElementsAre("--managed", "--machine"));
}

TEST_F(ResizectlTest, BashCompletesPoolCommandsAndPoolNames)
{
    ASSERT_EQ(resizectl({"pool", "set", "batch", "--cpus", "2"}).exitStatus, 0);

    EXPECT_THAT(complete("resizectl pool "), UnorderedElementsAre("set", "list", "status", "remove"));
    EXPECT_THAT(complete("resizectl pool status "), UnorderedElementsAre("batch"));
    EXPECT_THAT(complete("resizectl pool remove b"), UnorderedElementsAre("batch"));
    EXPECT_THAT(complete("resizectl pool set batch --m"), UnorderedElementsAre("--memory", "--machine"));
    EXPECT_THAT(complete("resizectl pool set batch --b"), UnorderedElementsAre("--budget"));
    EXPECT_THAT(complete("resizectl pool set batch --no-b"), UnorderedElementsAre("--no-budgets"));
    // A budget is the option's value, not the pool's name.
    EXPECT_THAT(complete("resizectl pool set --budget 2 "), UnorderedElementsAre("batch"));
    EXPECT_THAT(complete("resizectl set web --cpus 1 --pool "), UnorderedElementsAre("batch"));
    EXPECT_THAT(complete("resizectl set web --po"), UnorderedElementsAre("--pool"));
}

TEST_F(ResizectlTest, BashCompletesPlanCommandsOptionsAndAssignments)
{
    EXPECT_THAT(complete("resizectl plan "), UnorderedElementsAre("submit", "list", "status", "cancel"));
    EXPECT_THAT(complete("resizectl plan submit --re"), UnorderedElementsAre("--reason"));
    EXPECT_THAT(complete("resizectl plan submit --reason "), UnorderedElementsAre("manual", "autoscale", "plan"));
    EXPECT_THAT(complete("resizectl plan submit web mem"), UnorderedElementsAre("memory=", "memory-high="));
    EXPECT_THAT(complete("resizectl plan submit web cpus=1"), UnorderedElementsAre("1", "1.5"));
    EXPECT_THAT(complete("resizectl set web cpuset"), UnorderedElementsAre("cpuset-cpus="));
}

}  // namespace
}  // namespace resized::ctl
