// The bus policy dbus/io.resized1.conf, enforced by a real dbus-daemon (set
// up by with-testenv.sh) against a real unprivileged caller (`runuser -u
// nobody -- busctl`). The test process itself owns io.resized1 as root and
// exports the Manager methods, recording which calls reach it.

#include "support/command.h"
#include "support/integration_test.h"

#include <sdbus-c++/sdbus-c++.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <mutex>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace resized::integration
{
namespace
{

constexpr auto busName = "io.resized1";
constexpr auto managerPath = "/io/resized1";
constexpr auto managerInterface = "io.resized1.Manager";

using Status = std::map<std::string, sdbus::Variant>;
using WorkloadEntry = sdbus::Struct<std::string, std::string, std::string,
                                    sdbus::ObjectPath>;

// Stands in for the daemon's Manager object: every method answers with an
// empty result and remembers that it was called.
class RecordingManager
{
  public:
    explicit RecordingManager(sdbus::IConnection& connection) :
        object_(sdbus::createObject(connection, managerPath))
    {
        object_->registerMethod("GetResourceStatus")
            .onInterface(managerInterface)
            .implementedAs([this](const std::string&) {
                record("GetResourceStatus");
                return Status{};
            });
        object_->registerMethod("ListWorkloads")
            .onInterface(managerInterface)
            .implementedAs([this] {
                record("ListWorkloads");
                return std::vector<WorkloadEntry>{};
            });
        object_->registerMethod("ValidateResourceUpdate")
            .onInterface(managerInterface)
            .implementedAs([this](const std::string&, const Status&) {
                record("ValidateResourceUpdate");
                return std::tuple<bool, std::string>{true, ""};
            });
        object_->registerMethod("UpdateResources")
            .onInterface(managerInterface)
            .implementedAs([this](const std::string&, const Status&, const Status&) {
                record("UpdateResources");
                return Status{};
            });
        for (const char* method : {"Reconcile", "Forget"})
        {
            object_->registerMethod(method)
                .onInterface(managerInterface)
                .implementedAs([this, method](const std::string&) { record(method); });
        }
        object_->finishRegistration();
    }

    bool wasCalled(const std::string& method) const
    {
        const std::lock_guard lock(mutex_);
        return calls_.contains(method);
    }

  private:
    void record(const std::string& method)
    {
        const std::lock_guard lock(mutex_);
        calls_.insert(method);
    }

    std::unique_ptr<sdbus::IObject> object_;
    mutable std::mutex mutex_;
    std::set<std::string> calls_;
};

struct ManagerCall
{
    std::string method;
    // busctl's signature and arguments.
    std::vector<std::string> arguments;
};

std::ostream& operator<<(std::ostream& stream, const ManagerCall& call)
{
    return stream << call.method;
}

class BusPolicyTest : public IntegrationTest
{
  protected:
    void SetUp() override
    {
        IntegrationTest::SetUp();
        if (IsSkipped())
        {
            return;
        }
        connection_ = sdbus::createSystemBusConnection(busName);
        manager_ = std::make_unique<RecordingManager>(*connection_);
        connection_->enterEventLoopAsync();
    }

    void TearDown() override
    {
        if (connection_)
        {
            connection_->leaveEventLoop();
        }
    }

    static CommandResult busctlAs(const std::string& user,
                                  const std::vector<std::string>& arguments)
    {
        std::vector<std::string> argv{"runuser", "-u", user, "--", "busctl",
                                      "--system"};
        argv.insert(argv.end(), arguments.begin(), arguments.end());
        return runCommand(argv);
    }

    static CommandResult callManagerAs(const std::string& user,
                                       const ManagerCall& call)
    {
        std::vector<std::string> arguments{"call", busName, managerPath,
                                           managerInterface, call.method};
        arguments.insert(arguments.end(), call.arguments.begin(),
                         call.arguments.end());
        return busctlAs(user, arguments);
    }

    // Denials are told apart from a caller that cannot reach the bus at all
    // by a call the same user is allowed to make.
    static void expectUnprivilegedCallerReachesTheBus()
    {
        const CommandResult allowed = busctlAs(
            "nobody", {"call", "org.freedesktop.DBus", "/org/freedesktop/DBus",
                       "org.freedesktop.DBus", "GetId"});
        EXPECT_EQ(allowed.exitStatus, 0) << allowed.standardError;
    }

    const RecordingManager& manager() const { return *manager_; }

  private:
    std::unique_ptr<sdbus::IConnection> connection_;
    std::unique_ptr<RecordingManager> manager_;
};

const std::vector<ManagerCall> readOnlyCalls = {
    {"GetResourceStatus", {"s", "web"}},
    {"ListWorkloads", {}},
    {"ValidateResourceUpdate", {"sa{sv}", "web", "1", "CpuQuotaMillis", "t", "500"}},
};

const std::vector<ManagerCall> changingCalls = {
    {"UpdateResources", {"sa{sv}a{sv}", "web", "1", "CpuQuotaMillis", "t", "500", "0"}},
    {"Reconcile", {"s", "web"}},
    {"Forget", {"s", "web"}},
};

class ReadOnlyCallTest : public BusPolicyTest,
                         public ::testing::WithParamInterface<ManagerCall>
{};

TEST_P(ReadOnlyCallTest, ReachesTheDaemonFromAnUnprivilegedCaller)
{
    const CommandResult result = callManagerAs("nobody", GetParam());

    EXPECT_EQ(result.exitStatus, 0) << result.standardError;
    EXPECT_TRUE(manager().wasCalled(GetParam().method));
}

INSTANTIATE_TEST_SUITE_P(Manager, ReadOnlyCallTest,
                         ::testing::ValuesIn(readOnlyCalls));

class ChangingCallTest : public BusPolicyTest,
                         public ::testing::WithParamInterface<ManagerCall>
{};

TEST_P(ChangingCallTest, IsDeniedToAnUnprivilegedCaller)
{
    const CommandResult result = callManagerAs("nobody", GetParam());

    EXPECT_NE(result.exitStatus, 0);
    EXPECT_THAT(result.standardError, ::testing::HasSubstr("Access denied"));
    EXPECT_FALSE(manager().wasCalled(GetParam().method));
    expectUnprivilegedCallerReachesTheBus();
}

TEST_P(ChangingCallTest, ReachesTheDaemonFromRoot)
{
    const CommandResult result = callManagerAs("root", GetParam());

    EXPECT_EQ(result.exitStatus, 0) << result.standardError;
    EXPECT_TRUE(manager().wasCalled(GetParam().method));
}

INSTANTIATE_TEST_SUITE_P(Manager, ChangingCallTest,
                         ::testing::ValuesIn(changingCalls));

TEST_F(BusPolicyTest, UnprivilegedCallerMayIntrospect)
{
    const CommandResult result =
        busctlAs("nobody", {"introspect", "--xml-interface", busName, managerPath});

    EXPECT_EQ(result.exitStatus, 0) << result.standardError;
    EXPECT_THAT(result.standardOutput, ::testing::HasSubstr(managerInterface));
}

TEST_F(BusPolicyTest, UnprivilegedCallerMayNotOwnTheName)
{
    const CommandResult result =
        busctlAs("nobody", {"call", "org.freedesktop.DBus", "/org/freedesktop/DBus",
                            "org.freedesktop.DBus", "RequestName", "su", busName, "0"});

    EXPECT_NE(result.exitStatus, 0);
    EXPECT_THAT(result.standardError, ::testing::HasSubstr("Access denied"));
    expectUnprivilegedCallerReachesTheBus();
}

} // namespace
} // namespace resized::integration
