// The shipped bus policy, dbus/io.resized1.conf (with-testenv.sh installs it
// as it is into a real dbus-daemon), against the contract, dbus/*.xml, in
// front of the real resized: every method of the contract is either a read,
// which an unprivileged caller (`runuser -u nobody -- busctl`) gets answered
// by the daemon, or a change, which the bus refuses to that caller before
// the daemon sees it and lets root through. A method added to the contract
// fails the first test until it is classified here, so that the policy has
// to be decided for it.

#include "daemon/daemon_test.h"
#include "daemon/interface_members.h"

#include "support/command.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <vector>

namespace resized::integration
{
namespace
{

using ::testing::HasSubstr;
using ::testing::StartsWith;

// How dbus-daemon's message starts when its policy refuses a call.
constexpr auto refusedByBusPolicy = "Rejected send message";
constexpr auto propertiesInterface = "org.freedesktop.DBus.Properties";

struct ContractCall
{
    std::string interface;
    std::string method;
    // busctl's arguments after the method: signature and values.
    std::vector<std::string> arguments;

    std::string member() const { return interface + "." + method; }
};

// The methods of the contract's interfaces, as "INTERFACE.METHOD".
std::set<std::string> contractMethods()
{
    std::set<std::string> methods;
    for (const std::string interface : {managerInterface, workloadInterface})
    {
        std::ifstream file(std::string(CONTRACT_DIRECTORY) + "/" + interface + ".xml");
        const std::string xml{std::istreambuf_iterator<char>(file),
                              std::istreambuf_iterator<char>()};
        for (const auto& member : membersOf(xml, interface))
        {
            if (member.starts_with("method "))
            {
                methods.insert(interface + "." + member.substr(std::string("method ").size()));
            }
        }
    }
    return methods;
}

CommandResult busctlAs(const std::string& user, const std::vector<std::string>& arguments)
{
    std::vector<std::string> argv{"runuser", "-u", user, "--", "busctl", "--system"};
    argv.insert(argv.end(), arguments.begin(), arguments.end());
    return runCommand(argv);
}

// A managed container, so that its Workload object exists for the calls.
class BusPolicyTest : public ManagedContainerTest
{
  protected:
    // The Manager's and the Workload's methods that only read.
    std::vector<ContractCall> reads() const
    {
        return {
            {managerInterface, "GetResourceStatus", {"s", name()}},
            {managerInterface, "ListWorkloads", {}},
            {managerInterface, "GetHistory", {"st", name(), "10"}},
            {managerInterface, "GetMetrics", {}},
            {managerInterface, "ValidateResourceUpdate", {"sa{sv}", name(), "1", "CpuMillis", "t", "500"}},
            {managerInterface, "ListPools", {}},
            {managerInterface, "ListPlans", {}},
            {managerInterface, "ListNodeWorkloads", {}},
        };
    }

    // Those that change something, in an order root can run them one after
    // the other: Forget last.
    std::vector<ContractCall> changes() const
    {
        return {
            {managerInterface, "UpdateResources",
             {"sa{sv}a{sv}", name(), "1", "CpuMillis", "t", "500", "0"}},
            {workloadInterface, "Update", {"a{sv}a{sv}", "1", "CpuMillis", "t", "400", "0"}},
            {managerInterface, "Reconcile", {"s", name()}},
            {workloadInterface, "Reconcile", {}},
            // Recommending only: the limits stay as Update left them.
            {managerInterface, "SetAutoscalePolicy",
             {"sa{sv}", name(), "2", "CpuTargetUtilization", "u", "50", "Mode", "s", "recommend"}},
            {managerInterface, "ReportMetrics", {"sa{sd}", name(), "1", "fps", "30"}},
            {managerInterface, "RemoveAutoscalePolicy", {"s", name()}},
            // A container resized knows nothing of: nothing to write.
            {managerInterface, "PrepareContainer", {"ssu", std::string(64, '0'), "", "1"}},
            // A pool with no members: the container's limits stay.
            {managerInterface, "SetPool", {"sa{sv}", "policy", "1", "CpuMillis", "t", "1000"}},
            {managerInterface, "RemovePool", {"s", "policy"}},
            // A dry run: validated, nothing changed.
            {managerInterface, "SubmitPlan",
             {"a(sa{sv})a{sv}", "1", name(), "1", "CpuMillis", "t", "500", "1", "DryRun", "b", "true"}},
            {workloadInterface, "Forget", {}},
            {managerInterface, "Forget", {"s", name()}},
        };
    }

    std::string pathOf(const ContractCall& call) const
    {
        return call.interface == managerInterface ? std::string(managerPath) : workloadPath();
    }

    // The answer of call made by user through hostile_bus_caller, which
    // prints the error's name and message ("ok" when it succeeded): busctl
    // hides the message of AccessDenied, which tells the bus's refusal from
    // the daemon's.
    std::string answerOf(const std::string& user, const ContractCall& call) const
    {
        std::vector<std::string> argv{"runuser", "-u", user, "--", HOSTILE_BUS_CALLER,
                                      pathOf(call), call.interface, call.method};
        if (call.interface == managerInterface)
        {
            argv.push_back(name());
        }
        return runCommandOrThrow(argv);
    }

    CommandResult callAs(const std::string& user, const ContractCall& call) const
    {
        std::vector<std::string> arguments{"call", busName, pathOf(call), call.interface,
                                           call.method};
        arguments.insert(arguments.end(), call.arguments.begin(), call.arguments.end());
        return busctlAs(user, arguments);
    }

    // The container's limits and desired state are still those of SetUp.
    void expectUntouched()
    {
        EXPECT_EQ(CgroupLimits::read(container().cgroupPath()).cpuMillis(), managed.cpuMillis);
        const Dictionary status = client().getResourceStatus(name());
        EXPECT_EQ(desiredOf(status), managed);
        EXPECT_EQ(entryOf<std::uint64_t>(status, "Generation"), 1U);
    }
};

TEST_F(BusPolicyTest, EveryMethodOfTheContractIsAReadOrAChange)
{
    std::set<std::string> classified;
    for (const auto& calls : {reads(), changes()})
    {
        for (const auto& call : calls)
        {
            classified.insert(call.member());
        }
    }

    EXPECT_EQ(contractMethods(), classified);
}

TEST_F(BusPolicyTest, DaemonAnswersReadsOfAnUnprivilegedCaller)
{
    for (const auto& call : reads())
    {
        const CommandResult result = callAs("nobody", call);
        EXPECT_EQ(result.exitStatus, 0) << call.member() << ": " << result.standardError;
    }
    // Answers of the daemon, not of a stand-in: they name the workload.
    EXPECT_THAT(callAs("nobody", reads().at(0)).standardOutput, HasSubstr(name()));
    EXPECT_THAT(callAs("nobody", reads().at(1)).standardOutput, HasSubstr(workloadPath()));
}

TEST_F(BusPolicyTest, UnprivilegedCallerMayReadPropertiesAndIntrospect)
{
    const std::vector<std::vector<std::string>> allowed{
        {"get-property", busName, managerPath, managerInterface, "CpuCapacityMillis"},
        {"call", busName, managerPath, propertiesInterface, "GetAll", "s", managerInterface},
        {"get-property", busName, workloadPath(), workloadInterface, "Desired"},
        {"call", busName, workloadPath(), propertiesInterface, "GetAll", "s", workloadInterface},
        {"call", busName, managerPath, "org.freedesktop.DBus.ObjectManager", "GetManagedObjects"},
        {"introspect", "--xml-interface", busName, managerPath},
        {"introspect", "--xml-interface", busName, workloadPath()},
        {"call", busName, managerPath, "org.freedesktop.DBus.Peer", "Ping"},
    };
    for (const auto& arguments : allowed)
    {
        const CommandResult result = busctlAs("nobody", arguments);
        EXPECT_EQ(result.exitStatus, 0) << arguments[0] << " " << arguments.back() << ": "
                                        << result.standardError;
    }
}

TEST_F(BusPolicyTest, BusRefusesChangesToAnUnprivilegedCaller)
{
    for (const auto& call : changes())
    {
        EXPECT_THAT(answerOf("nobody", call),
                    StartsWith(std::string("org.freedesktop.DBus.Error.AccessDenied: ") +
                               refusedByBusPolicy))
            << call.member();
    }
    // Properties are read-only in the contract; nobody may even try to set
    // one (resized itself would answer PropertyReadOnly, not this).
    const CommandResult set = busctlAs(
        "nobody", {"set-property", busName, managerPath, managerInterface, "CpuCapacityMillis",
                   "t", "1"});
    EXPECT_NE(set.exitStatus, 0);
    EXPECT_THAT(set.standardError, HasSubstr("Access denied"));

    expectUntouched();
}

TEST_F(BusPolicyTest, DaemonCarriesOutChangesOfRoot)
{
    for (const auto& call : changes())
    {
        SCOPED_TRACE(call.member());
        const CommandResult result = callAs("root", call);
        ASSERT_EQ(result.exitStatus, 0) << result.standardError;

        const Dictionary status = client().getResourceStatus(name());
        if (call.method == "Forget")
        {
            EXPECT_EQ(entryOf<std::string>(status, "SyncState"), "unknown");
            // Managed again, for the Forget that follows.
            client().updateResources(name(), managed);
            continue;
        }
        // UpdateResources asks 500m, Update 400m, and Reconcile keeps that.
        const std::uint64_t expected = call.method == "UpdateResources" ? 500 : 400;
        EXPECT_EQ(desiredOf(status).cpuMillis, expected);
        EXPECT_EQ(CgroupLimits::read(container().cgroupPath()).cpuMillis(), expected);
    }
}

TEST_F(BusPolicyTest, UnprivilegedCallerMayNotOwnTheName)
{
    const CommandResult result =
        busctlAs("nobody", {"call", "org.freedesktop.DBus", "/org/freedesktop/DBus",
                            "org.freedesktop.DBus", "RequestName", "su", busName, "0"});

    EXPECT_NE(result.exitStatus, 0);
    EXPECT_THAT(result.standardError, HasSubstr("Access denied"));
    // The same caller reaches the bus: the refusal is the policy's.
    const CommandResult reachable = busctlAs(
        "nobody", {"call", "org.freedesktop.DBus", "/org/freedesktop/DBus",
                   "org.freedesktop.DBus", "GetId"});
    EXPECT_EQ(reachable.exitStatus, 0) << reachable.standardError;
}

} // namespace
} // namespace resized::integration
