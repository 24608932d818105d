#include <gtest/gtest.h>

#include "arguments.h"
#include "bus_label.h"
#include "bus_target.h"
#include "exit_status.h"

namespace resized::ctl {
namespace {

using namespace std::chrono_literals;

TEST(CpuWeightArgument, IsAWholeNumber)
{
    EXPECT_EQ(parseCpuWeightArgument("100"), 100u);
    EXPECT_EQ(parseCpuWeightArgument("10000"), 10000u);
    EXPECT_FALSE(parseCpuWeightArgument("1.5"));
    EXPECT_FALSE(parseCpuWeightArgument("-1"));
    EXPECT_FALSE(parseCpuWeightArgument(""));
    EXPECT_FALSE(parseCpuWeightArgument("100x"));
}

TEST(CpusArgument, IsCanonicalised)
{
    EXPECT_EQ(parseCpusArgument("0-3,6"), "0-3,6");
    EXPECT_EQ(parseCpusArgument("3,0,1,2"), "0-3");
}

TEST(CpusArgument, AllAndEmptyMeanEveryCpu)
{
    EXPECT_EQ(parseCpusArgument("all"), "");
    EXPECT_EQ(parseCpusArgument(""), "");
}

TEST(CpusArgument, RefusesMalformedLists)
{
    EXPECT_FALSE(parseCpusArgument("3-1"));
    EXPECT_FALSE(parseCpusArgument("zero"));
    EXPECT_FALSE(parseCpusArgument("0,,1"));
}

TEST(Timespan, TakesSystemdUnits)
{
    EXPECT_EQ(parseTimespan("5s"), 5s);
    EXPECT_EQ(parseTimespan("500ms"), 500ms);
    EXPECT_EQ(parseTimespan("1min 30s"), 90s);
    EXPECT_EQ(parseTimespan("1min30s"), 90s);
    EXPECT_EQ(parseTimespan("2h"), 2h);
    EXPECT_EQ(parseTimespan("1.5s"), 1500ms);
    EXPECT_EQ(parseTimespan("250us"), 250us);
}

TEST(Timespan, BareNumberIsSeconds)
{
    EXPECT_EQ(parseTimespan("10"), 10s);
    EXPECT_EQ(parseTimespan("0"), 0s);
}

TEST(Timespan, RefusesWhatItCannotRead)
{
    EXPECT_FALSE(parseTimespan(""));
    EXPECT_FALSE(parseTimespan("   "));
    EXPECT_FALSE(parseTimespan("5 parsecs"));
    EXPECT_FALSE(parseTimespan("s"));
    EXPECT_FALSE(parseTimespan("-5s"));
}

TEST(MachineName, IsAHostNameOrDotHost)
{
    EXPECT_TRUE(isMachineName("web-1"));
    EXPECT_TRUE(isMachineName("build_box.example"));
    EXPECT_TRUE(isMachineName(".host"));
    EXPECT_FALSE(isMachineName(""));
    EXPECT_FALSE(isMachineName("a/b"));
    EXPECT_FALSE(isMachineName("root@web"));
    EXPECT_FALSE(isMachineName("a..b"));
    EXPECT_FALSE(isMachineName(".web"));
    EXPECT_FALSE(isMachineName(std::string(65, 'a')));
}

TEST(MachineName, AddressesTheContainersSystemBus)
{
    EXPECT_EQ(machineBusAddress("web-1"), "x-machine-unix:machine=web-1");
}

TEST(BusTarget, DescribesWhereItConnects)
{
    EXPECT_EQ(BusTarget{}.description(), "the system bus");
    EXPECT_EQ((BusTarget{BusTarget::Kind::Host, "root@node7"}).description(),
              "the system bus of root@node7 (over ssh)");
    EXPECT_EQ((BusTarget{BusTarget::Kind::Machine, "web"}).description(), "the system bus of container web");
}

TEST(WorkloadPath, UnescapesTheBusLabel)
{
    EXPECT_EQ(workloadNameFromPath("/io/resized1/workload/web"), "web");
    EXPECT_EQ(workloadNameFromPath("/io/resized1/workload/web_2d1"), "web-1");
    EXPECT_EQ(workloadNameFromPath("/io/resized1/workload/my_5fdb_2eprod"), "my_db.prod");
}

TEST(WorkloadPath, RefusesOtherPathsAndBadEscapes)
{
    EXPECT_FALSE(workloadNameFromPath("/io/resized1"));
    EXPECT_FALSE(workloadNameFromPath("/io/resized1/workload/"));
    EXPECT_FALSE(workloadNameFromPath("/io/resized1/workload/web_2"));
    EXPECT_FALSE(workloadNameFromPath("/io/resized1/workload/web_zz"));
    EXPECT_FALSE(workloadNameFromPath("/org/other/workload/web"));
}

TEST(ExitStatus, EachContractErrorHasItsOwnStatus)
{
    EXPECT_EQ(exitStatusForBusError("io.resized1.Error.InvalidArgument"), ExitStatus::InvalidArgument);
    EXPECT_EQ(exitStatusForBusError("io.resized1.Error.NoSuchWorkload"), ExitStatus::NoSuchWorkload);
    EXPECT_EQ(exitStatusForBusError("io.resized1.Error.InsufficientResources"), ExitStatus::InsufficientResources);
    EXPECT_EQ(exitStatusForBusError("io.resized1.Error.Infeasible"), ExitStatus::Infeasible);
    EXPECT_EQ(exitStatusForBusError("io.resized1.Error.MemoryInUse"), ExitStatus::MemoryInUse);
    EXPECT_EQ(exitStatusForBusError("io.resized1.Error.ApplyFailed"), ExitStatus::ApplyFailed);
    EXPECT_EQ(exitStatusForBusError("io.resized1.Error.RuntimeUnavailable"), ExitStatus::RuntimeUnavailable);
    EXPECT_EQ(exitStatusForBusError("org.freedesktop.DBus.Error.AccessDenied"), ExitStatus::AccessDenied);
    EXPECT_EQ(exitStatusForBusError("org.freedesktop.DBus.Error.ServiceUnknown"), ExitStatus::DaemonNotRunning);
    EXPECT_EQ(exitStatusForBusError("org.freedesktop.DBus.Error.NameHasNoOwner"), ExitStatus::DaemonNotRunning);
    EXPECT_EQ(exitStatusForBusError("org.freedesktop.DBus.Error.UnknownMethod"), ExitStatus::NotSupported);
}

TEST(ExitStatus, AnyOtherErrorIsAFailure)
{
    EXPECT_EQ(exitStatusForBusError("org.freedesktop.DBus.Error.NoReply"), ExitStatus::Failure);
    EXPECT_EQ(exitStatusForBusError(""), ExitStatus::Failure);
}

}  // namespace
}  // namespace resized::ctl
