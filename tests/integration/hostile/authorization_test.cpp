// Who may change limits, tried by real callers without privileges (`nobody`
// and `daemon` through runuser and busctl): reads are open to everyone,
// changes need root or the configured group. The daemon checks credentials
// itself: with a bus policy that lets everybody through, it still refuses.

#include "unprivileged_caller.h"
#include "hostile_test.h"
#include "lax_bus_policy.h"

#include "support/bus_names.h"
#include "support/wait.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <signal.h>

#include <fstream>
#include <string>
#include <vector>

namespace resized::integration
{
namespace
{

using ::testing::StartsWith;

// How dbus-daemon's message starts when its policy refuses a call, and what
// resized says when it refuses one itself.
constexpr auto refusedByBusPolicy = "Rejected send message";
constexpr auto refusedByDaemon = "changing limits needs root or membership of group";

class AuthorizationTest : public HostileTest
{
  protected:
    // hostile_bus_caller arguments of every call that changes something,
    // for the Manager and for the Workload object.
    std::vector<std::vector<std::string>> changingCalls() const
    {
        const std::string path = workloadPath();
        return {
            {managerPath, managerInterface, "UpdateResources", name()},
            {managerPath, managerInterface, "Reconcile", name()},
            {managerPath, managerInterface, "Reconcile", ""},
            {managerPath, managerInterface, "Forget", name()},
            {path, workloadInterface, "Update"},
            {path, workloadInterface, "Reconcile"},
            {path, workloadInterface, "Forget"},
        };
    }

    // busctl arguments of calls that only read.
    std::vector<std::vector<std::string>> readingCalls() const
    {
        return {
            {"call", busName, managerPath, managerInterface, "GetResourceStatus", "s", name()},
            {"call", busName, managerPath, managerInterface, "ListWorkloads"},
            {"call", busName, managerPath, managerInterface, "ValidateResourceUpdate", "sa{sv}",
             name(), "1", "CpuMillis", "t", "500"},
            {"get-property", busName, managerPath, managerInterface, "CpuAvailableMillis"},
            {"get-property", busName, workloadPath(), workloadInterface, "Desired"},
            {"call", busName, managerPath, "org.freedesktop.DBus.ObjectManager",
             "GetManagedObjects"},
        };
    }

    void expectChangesRefusedWith(const std::string& user, const std::string& message)
    {
        for (const auto& call : changingCalls())
        {
            EXPECT_THAT(callAs(user, call), StartsWith(std::string(error::accessDenied) + ": " + message))
                << call[2] << " on " << call[0];
        }
    }

    void expectReadsAllowed(const std::string& user)
    {
        for (const auto& call : readingCalls())
        {
            const CommandResult result = busctlAs(user, call);
            EXPECT_TRUE(result.succeeded()) << call[4] << ": " << result.standardError;
        }
    }

    // Makes group the one allowed to change limits and has the running
    // daemon read its configuration again (SIGHUP).
    void allowGroup(const std::string& group)
    {
        std::ofstream(daemon().options().configFile, std::ios::app)
            << "[Authorization]\nGroup=" << group << "\n";
        const auto pid = busNameOwnerPid(busName);
        ASSERT_TRUE(pid);
        ASSERT_EQ(::kill(*pid, SIGHUP), 0);
    }
};

TEST_F(AuthorizationTest, BusPolicyLetsEverybodyReadAndOnlyRootChange)
{
    expectChangesRefusedWith("nobody", refusedByBusPolicy);
    expectReadsAllowed("nobody");

    expectUntouched();
}

TEST_F(AuthorizationTest, DaemonRefusesChangesEvenWhenTheBusPolicyAllowsThem)
{
    const LaxBusPolicy laxPolicy(environment().directory);

    expectChangesRefusedWith("nobody", refusedByDaemon);
    expectReadsAllowed("nobody");

    expectUntouched();
}

TEST_F(AuthorizationTest, MembersOfTheConfiguredGroupMayChange)
{
    const LaxBusPolicy laxPolicy(environment().directory);
    // nogroup is the primary group of nobody, and not one of daemon's.
    allowGroup("nogroup");

    const auto update = changingCalls().front();
    EXPECT_TRUE(waitUntil([&] { return callAs("nobody", update) == "ok"; },
                          std::chrono::seconds(20)))
        << callAs("nobody", update);
    EXPECT_EQ(CgroupLimits::read(container().cgroupPath()).cpuMillis(), 500U);
    EXPECT_EQ(desiredOf(client().getResourceStatus(name())).cpuMillis, 500U);

    EXPECT_EQ(callAs("daemon", update), std::string(error::accessDenied) + ": " + refusedByDaemon +
                                            " \"nogroup\"");
}

} // namespace
} // namespace resized::integration
