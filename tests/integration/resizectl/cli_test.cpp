// The resizectl binary on its own: what it decides before ever talking to
// the daemon. Runs without a bus; the bus address points nowhere.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "build_config.h"
#include "support/command.h"

namespace resized::ctl {
namespace {

using integration::CommandResult;
using ::testing::HasSubstr;
using ::testing::StartsWith;

CommandResult resizectl(const std::vector<std::string>& arguments)
{
    std::vector<std::string> argv{RESIZECTL_BINARY};
    argv.insert(argv.end(), arguments.begin(), arguments.end());
    return integration::runCommand(argv, {"DBUS_SYSTEM_BUS_ADDRESS=unix:path=/nonexistent/bus.sock"});
}

TEST(ResizectlCli, HelpNamesEveryVerbAndTheExitStatuses)
{
    const auto result = resizectl({"--help"});

    EXPECT_EQ(result.exitStatus, 0);
    for (const char* verb : {"status", "list", "set", "validate", "node", "reconcile", "forget", "history", "watch"})
        EXPECT_THAT(result.standardOutput, HasSubstr(std::string("\n  ") + verb + " ")) << verb;
    EXPECT_THAT(result.standardOutput, HasSubstr("12 resized not running"));
}

TEST(ResizectlCli, EveryVerbHasHelp)
{
    for (const char* verb : {"status", "list", "set", "validate", "node", "reconcile", "forget", "history", "watch"}) {
        const auto result = resizectl({verb, "--help"});
        EXPECT_EQ(result.exitStatus, 0) << verb;
        EXPECT_THAT(result.standardOutput, HasSubstr(std::string("Usage: resizectl ") + verb)) << verb;
    }
}

TEST(ResizectlCli, VersionIsTheProjects)
{
    const auto result = resizectl({"--version"});
    EXPECT_EQ(result.exitStatus, 0);
    EXPECT_EQ(result.standardOutput, RESIZED_VERSION "\n");
}

TEST(ResizectlCli, SetWithoutAResourceIsAUsageError)
{
    const auto result = resizectl({"set", "web"});
    EXPECT_EQ(result.exitStatus, 2);
    EXPECT_THAT(result.standardError, HasSubstr("--cpu"));
}

TEST(ResizectlCli, UnreadableQuantitiesAreUsageErrors)
{
    EXPECT_EQ(resizectl({"set", "web", "--cpu", "1.5x"}).exitStatus, 2);
    EXPECT_EQ(resizectl({"set", "web", "--memory", "lots"}).exitStatus, 2);
    EXPECT_EQ(resizectl({"set", "web", "--cpus", "3-1"}).exitStatus, 2);
    EXPECT_EQ(resizectl({"set", "web", "--cpu", "1", "--reclaim-timeout", "soon"}).exitStatus, 2);
    EXPECT_EQ(resizectl({"validate", "web", "--cpu-weight", "heavy"}).exitStatus, 2);
}

TEST(ResizectlCli, UnknownVerbOrOptionIsAUsageError)
{
    EXPECT_EQ(resizectl({"frobnicate"}).exitStatus, 2);
    EXPECT_EQ(resizectl({"list", "--frobnicate"}).exitStatus, 2);
    EXPECT_EQ(resizectl({}).exitStatus, 2);
}

TEST(ResizectlCli, HistoryIsNotSupportedStatus13)
{
    const auto result = resizectl({"history", "web"});
    EXPECT_EQ(result.exitStatus, 13);
    EXPECT_THAT(result.standardError, StartsWith("resizectl: history is not supported"));
}

TEST(ResizectlCli, UnreachableBusIsAFailure)
{
    const auto result = resizectl({"list"});
    EXPECT_EQ(result.exitStatus, 1);
    EXPECT_THAT(result.standardError, StartsWith("resizectl: cannot connect to the system bus"));
}

}  // namespace
}  // namespace resized::ctl
