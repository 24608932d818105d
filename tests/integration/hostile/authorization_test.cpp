// Who may change limits, tried by real callers without privileges (`nobody`
// and `daemon` through runuser and busctl): reads are open to everyone,
// changes need root or the configured group. The daemon checks credentials
// itself: with a bus policy that lets everybody through, it still refuses.
// A real member of the real group "resized" gets through both locks as
// shipped: the project's bus policy and the daemon's default group.

#include "unprivileged_caller.h"
#include "hostile_test.h"
#include "lax_bus_policy.h"
#include "scoped_system_account.h"

#include "support/bus_names.h"
#include "support/cgroup_v1.h"
#include "support/wait.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <signal.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <optional>
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
// The group of dbus/io.resized1.conf, and resized's [Authorization] Group=
// when its configuration does not say (daemon/service/settings.h); the
// daemon tests' configuration does not.
constexpr auto shippedGroup = "resized";

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
            {managerPath, managerInterface, "SetAutoscalePolicy", name()},
            {managerPath, managerInterface, "RemoveAutoscalePolicy", name()},
            {managerPath, managerInterface, "ReportMetrics", name()},
            {managerPath, managerInterface, "SetPool", "batch"},
            {managerPath, managerInterface, "RemovePool", "batch"},
            {managerPath, managerInterface, "SubmitPlan", name()},
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
            {"call", busName, managerPath, managerInterface, "GetHistory", "st", name(), "10"},
            {"call", busName, managerPath, managerInterface, "GetMetrics"},
            {"call", busName, managerPath, managerInterface, "ListPools"},
            {"call", busName, managerPath, managerInterface, "ListPlans"},
            {"call", busName, managerPath, managerInterface, "ListNodeWorkloads"},
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

// A system user in the real group "resized" for each test, made before and
// removed after it.
class ShippedGroupTest : public AuthorizationTest
{
  protected:
    void SetUp() override
    {
        AuthorizationTest::SetUp();
        if (IsSkipped())
        {
            return;
        }
        member_.emplace("resized-test-" + std::to_string(::getpid()), shippedGroup,
                        environment().directory / "system-accounts");
        // dbus-daemon resolves the groups of its policy when it reads it.
        reloadBusConfiguration();
    }

    void TearDown() override
    {
        const bool hadMember = member_.has_value();
        member_.reset();
        if (hadMember)
        {
            // So that the bus's policy keeps no GID of a removed group.
            reloadBusConfiguration();
        }
        AuthorizationTest::TearDown();
    }

    const std::string& member() const { return member_->user(); }

    std::filesystem::path cpuQuotaFile() const
    {
        return CgroupV1(container().cgroupPath()).file("cpu", "cpu.cfs_quota_us");
    }

  private:
    std::optional<ScopedSystemAccount> member_;
};

TEST_F(ShippedGroupTest, MembersChangeLimitsThroughTheShippedPolicyAndNobodyStillCannot)
{
    expectChangesRefusedWith("nobody", refusedByBusPolicy);
    expectUntouched();

    EXPECT_EQ(callAs(member(), {managerPath, managerInterface, "UpdateResources", name()}), "ok");
    EXPECT_EQ(CgroupLimits::read(container().cgroupPath()).cpuMillis(), 500U);
    EXPECT_EQ(desiredOf(client().getResourceStatus(name())).cpuMillis, 500U);

    // Drift behind resized's back (the periodic sync is an hour away): only
    // the member's Reconcile repairs it.
    std::ofstream(cpuQuotaFile()) << "30000";
    ASSERT_EQ(CgroupLimits::read(container().cgroupPath()).cpuMillis(), 300U);
    EXPECT_EQ(callAs(member(), {managerPath, managerInterface, "Reconcile", name()}), "ok");
    EXPECT_TRUE(waitUntil(
        [&] { return CgroupLimits::read(container().cgroupPath()).cpuMillis() == 500U; },
        std::chrono::seconds(20)))
        << CgroupLimits::read(container().cgroupPath());
    EXPECT_EQ(callAs(member(), {managerPath, managerInterface, "Reconcile", ""}), "ok");

    EXPECT_EQ(callAs(member(), {managerPath, managerInterface, "Forget", name()}), "ok");
    EXPECT_EQ(entryOf<std::string>(client().getResourceStatus(name()), "SyncState"), "unknown");
    EXPECT_TRUE(client().listWorkloads().empty());
    EXPECT_EQ(CgroupLimits::read(container().cgroupPath()).cpuMillis(), 500U)
        << "Forget changed the limits";
    EXPECT_EQ(client().managerNumber("CpuReservedMillis"), 0U);
}

TEST_F(ShippedGroupTest, DaemonRefusesNonMembersNamingTheGroup)
{
    const LaxBusPolicy laxPolicy(environment().directory);

    for (const auto& call : changingCalls())
    {
        EXPECT_EQ(callAs("nobody", call), std::string(error::accessDenied) + ": " +
                                              refusedByDaemon + " \"" + shippedGroup + "\"")
            << call[2] << " on " << call[0];
    }
    expectUntouched();

    // The same daemon lets the member through: the group is what differs.
    EXPECT_EQ(callAs(member(), changingCalls().front()), "ok");
    EXPECT_EQ(CgroupLimits::read(container().cgroupPath()).cpuMillis(), 500U);
}

} // namespace
} // namespace resized::integration
