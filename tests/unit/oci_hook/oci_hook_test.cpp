// What resized-oci-hook reads: the runtime's state on standard input and the
// container's name from conmon's arguments.

#include <gtest/gtest.h>
#include <unistd.h>

#include "container_name.h"
#include "oci_state.h"

namespace resized::hook {
namespace {

TEST(OciState, ReadsWhatRuncGivesACreateRuntimeHook)
{
    // As runc 1.1 wrote it under Podman 4.3 (annotations shortened).
    const OciState state = parseOciState(
        R"({"ociVersion":"1.0.2-dev","id":"cfd8c872ad35","status":"creating","pid":3399,)"
        R"("bundle":"/var/lib/containers/storage/overlay-containers/cfd8c872ad35/userdata",)"
        R"("annotations":{"io.container.manager":"libpod"}})");
    EXPECT_EQ(state.id, "cfd8c872ad35");
    EXPECT_EQ(state.pid, 3399);
    EXPECT_EQ(state.status, "creating");
    EXPECT_EQ(state.bundle, "/var/lib/containers/storage/overlay-containers/cfd8c872ad35/userdata");
}

TEST(OciState, RefusesStatesWithoutIdOrPid)
{
    for (const char* json : {"", "[]", "{", R"({"pid":1})", R"({"id":"","pid":1})", R"({"id":7,"pid":1})",
                             R"({"id":"a"})", R"({"id":"a","pid":0})", R"({"id":"a","pid":-4})",
                             R"({"id":"a","pid":"12"})", R"({"id":"a","pid":1.5})",
                             R"({"id":"a","pid":99999999999})"})
        EXPECT_THROW(parseOciState(json), InvalidState) << json;
}

TEST(ConmonArguments, ShortAndLongNameOptions)
{
    EXPECT_EQ(nameFromConmonArguments({"/usr/bin/conmon", "--api-version", "1", "-c", "abc", "-n", "web"}), "web");
    EXPECT_EQ(nameFromConmonArguments({"conmon", "--name", "db"}), "db");
    EXPECT_EQ(nameFromConmonArguments({"conmon", "--name=cache"}), "cache");
}

TEST(ConmonArguments, ValuesOfOtherProgramsAreNotItsOptions)
{
    EXPECT_EQ(nameFromConmonArguments({"conmon", "--exit-command-arg", "-n", "--exit-command-arg", "x", "-n",
                                       "web"}),
              "web");
    EXPECT_EQ(nameFromConmonArguments({"conmon", "--runtime-arg", "--name", "-c", "abc"}), std::nullopt);
}

TEST(ConmonArguments, OnlyConmonIsAsked)
{
    EXPECT_EQ(nameFromConmonArguments({}), std::nullopt);
    EXPECT_EQ(nameFromConmonArguments({"/usr/bin/runc", "-n", "web"}), std::nullopt);
    EXPECT_EQ(nameFromConmonArguments({"conmon", "-n"}), std::nullopt);
}

TEST(ConmonAncestors, AProcessTreeWithoutConmonHasNoName)
{
    EXPECT_EQ(containerNameFromAncestors(getpid()), std::nullopt);
}

}  // namespace
}  // namespace resized::hook
