#include <gtest/gtest.h>

#include "arguments.h"
#include "bus_label.h"
#include "bus_target.h"
#include "core/resources.h"
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
    EXPECT_EQ(parseCpusArgument("0-3,6"), (core::CpuSet{0, 1, 2, 3, 6}));
    EXPECT_EQ(parseCpusArgument("3,0,1,2"), (core::CpuSet{0, 1, 2, 3}));
}

TEST(CpusArgument, AllAndEmptyMeanEveryCpu)
{
    EXPECT_EQ(parseCpusArgument("all"), core::CpuSet{});
    EXPECT_EQ(parseCpusArgument(""), core::CpuSet{});
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
    // Budget periods and windows are hours and days long.
    EXPECT_EQ(parseTimespan("1h30min"), 90min);
    EXPECT_EQ(parseTimespan("10m"), 10min);
    EXPECT_EQ(parseTimespan("8hours"), 8h);
    EXPECT_EQ(parseTimespan("2d"), 48h);
    EXPECT_EQ(parseTimespan("1day 12hr"), 36h);
    EXPECT_EQ(parseTimespan("1w"), 168h);
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

constexpr uint64_t kKi = 1ull << 10;
constexpr uint64_t kMi = 1ull << 20;
constexpr uint64_t kGi = 1ull << 30;

TEST(MemoryArgument, ReadsPodmansUnitLettersAsPowersOf1024)
{
    EXPECT_EQ(parseMemoryArgument("512m"), 512 * kMi);
    EXPECT_EQ(parseMemoryArgument("1g"), kGi);
    EXPECT_EQ(parseMemoryArgument("1G"), kGi);
    EXPECT_EQ(parseMemoryArgument("64k"), 64 * kKi);
    EXPECT_EQ(parseMemoryArgument("1GB"), kGi);
    EXPECT_EQ(parseMemoryArgument("1gib"), kGi);
    EXPECT_EQ(parseMemoryArgument("2t"), 2048 * kGi);
    EXPECT_EQ(parseMemoryArgument("4096b"), 4096u);
    EXPECT_EQ(parseMemoryArgument("4096"), 4096u);
    EXPECT_EQ(parseMemoryArgument("1 g"), kGi);
}

TEST(MemoryArgument, ReadsKubernetesBinarySuffixes)
{
    EXPECT_EQ(parseMemoryArgument("512Mi"), 512 * kMi);
    EXPECT_EQ(parseMemoryArgument("1.5Gi"), 1536 * kMi);
    EXPECT_EQ(parseMemoryArgument("64Ki"), 64 * kKi);
    EXPECT_EQ(parseMemoryArgument("1Ei"), 1ull << 60);
}

TEST(MemoryArgument, CutsAFractionToWholeBytesAsPodmanDoes)
{
    EXPECT_EQ(parseMemoryArgument("1.5g"), 1536 * kMi);
    EXPECT_EQ(parseMemoryArgument("0.1k"), 102u);
}

TEST(MemoryArgument, MaxAndInfinityMeanNoLimit)
{
    EXPECT_EQ(parseMemoryArgument("max"), core::kUnlimited);
    EXPECT_EQ(parseMemoryArgument("infinity"), core::kUnlimited);
}

TEST(MemoryArgument, RefusesWhatPodmanRefuses)
{
    EXPECT_FALSE(parseMemoryArgument(""));
    EXPECT_FALSE(parseMemoryArgument("g"));
    EXPECT_FALSE(parseMemoryArgument("-1g"));
    EXPECT_FALSE(parseMemoryArgument("1x"));
    EXPECT_FALSE(parseMemoryArgument("1gbb"));
    EXPECT_FALSE(parseMemoryArgument("1ig"));
    EXPECT_FALSE(parseMemoryArgument("1.5.3g"));
    EXPECT_FALSE(parseMemoryArgument("lots"));
    EXPECT_FALSE(parseMemoryArgument("99999999p"));
}

// The values crun 1.23's convert_shares_to_weight() gives.
TEST(CpuShares, BecomeTheWeightCrunWrites)
{
    EXPECT_EQ(cpuWeightForShares(2), 1u);
    EXPECT_EQ(cpuWeightForShares(3), 2u);
    EXPECT_EQ(cpuWeightForShares(100), 17u);
    EXPECT_EQ(cpuWeightForShares(512), 59u);
    EXPECT_EQ(cpuWeightForShares(1024), 100u);
    EXPECT_EQ(cpuWeightForShares(2048), 174u);
    EXPECT_EQ(cpuWeightForShares(100000), 4340u);
    EXPECT_EQ(cpuWeightForShares(262144), 10000u);
    EXPECT_EQ(cpuWeightForShares(1'000'000), 10000u);
}

TEST(CpuShares, AreAWholeNumberAboveZero)
{
    EXPECT_EQ(parseCpuSharesArgument("1024"), 100u);
    EXPECT_EQ(parseCpuSharesArgument("1"), 1u);
    EXPECT_FALSE(parseCpuSharesArgument("0"));
    EXPECT_FALSE(parseCpuSharesArgument("1.5"));
    EXPECT_FALSE(parseCpuSharesArgument("heavy"));
}

TEST(SystemdSize, TakesSuffixesAsPowersOf1024)
{
    EXPECT_EQ(parseSystemdSize("1G"), kGi);
    EXPECT_EQ(parseSystemdSize("512M"), 512 * kMi);
    EXPECT_EQ(parseSystemdSize("64K"), 64 * kKi);
    EXPECT_EQ(parseSystemdSize("2T"), 2048 * kGi);
    EXPECT_EQ(parseSystemdSize("4096B"), 4096u);
    EXPECT_EQ(parseSystemdSize("4096"), 4096u);
    EXPECT_EQ(parseSystemdSize("1.5G"), 1536 * kMi);
    EXPECT_EQ(parseSystemdSize("10.M"), 10 * kMi);
    EXPECT_EQ(parseSystemdSize(" 1 G"), kGi);
}

TEST(SystemdSize, AddsPartsInDescendingOrder)
{
    EXPECT_EQ(parseSystemdSize("1G 512M"), 1536 * kMi);
    EXPECT_EQ(parseSystemdSize("1G512"), kGi + 512);
    EXPECT_FALSE(parseSystemdSize("512M 1G"));
    EXPECT_FALSE(parseSystemdSize("1K2K"));
}

TEST(SystemdSize, IsCaseSensitiveAndRefusesTheRest)
{
    EXPECT_FALSE(parseSystemdSize("1g"));
    EXPECT_FALSE(parseSystemdSize("1Gi"));
    EXPECT_FALSE(parseSystemdSize(""));
    EXPECT_FALSE(parseSystemdSize("-1G"));
    EXPECT_FALSE(parseSystemdSize(".5G"));
    EXPECT_FALSE(parseSystemdSize("16E"));
}

TEST(SystemdPermyriad, ReadsPercentPermilleAndPermyriad)
{
    EXPECT_EQ(parseSystemdPermyriad("150%"), 15000u);
    EXPECT_EQ(parseSystemdPermyriad("12.5%"), 1250u);
    EXPECT_EQ(parseSystemdPermyriad("12.34%"), 1234u);
    EXPECT_EQ(parseSystemdPermyriad("0%"), 0u);
    EXPECT_EQ(parseSystemdPermyriad("125‰"), 1250u);
    EXPECT_EQ(parseSystemdPermyriad("12.5‰"), 125u);
    EXPECT_EQ(parseSystemdPermyriad("1250‱"), 1250u);
}

TEST(SystemdPermyriad, RefusesOtherForms)
{
    EXPECT_FALSE(parseSystemdPermyriad("150"));
    EXPECT_FALSE(parseSystemdPermyriad("1.5"));
    EXPECT_FALSE(parseSystemdPermyriad("12.345%"));
    EXPECT_FALSE(parseSystemdPermyriad("12.%"));
    EXPECT_FALSE(parseSystemdPermyriad("1.25‰"));
    EXPECT_FALSE(parseSystemdPermyriad("1.5‱"));
    EXPECT_FALSE(parseSystemdPermyriad("-5%"));
    EXPECT_FALSE(parseSystemdPermyriad("%"));
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
    EXPECT_EQ(exitStatusForBusError("io.resized1.Error.NoSuchPool"), ExitStatus::NoSuchPool);
    EXPECT_EQ(exitStatusForBusError("io.resized1.Error.InsufficientResources"), ExitStatus::InsufficientResources);
    EXPECT_EQ(exitStatusForBusError("io.resized1.Error.Infeasible"), ExitStatus::Infeasible);
    EXPECT_EQ(exitStatusForBusError("io.resized1.Error.BudgetExhausted"), ExitStatus::BudgetExhausted);
    EXPECT_EQ(exitStatusForBusError("io.resized1.Error.NoSuchPlan"), ExitStatus::NoSuchPlan);
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

TEST(ExitStatus, AFinishedPlanExitsAsSetWouldForTheSameCause)
{
    EXPECT_EQ(exitStatusForPlan("succeeded", ""), ExitStatus::Success);
    EXPECT_EQ(exitStatusForPlan("rejected", "capacity"), ExitStatus::InsufficientResources);
    EXPECT_EQ(exitStatusForPlan("rejected", "infeasible"), ExitStatus::Infeasible);
    EXPECT_EQ(exitStatusForPlan("rejected", "budget"), ExitStatus::BudgetExhausted);
    EXPECT_EQ(exitStatusForPlan("rejected", "churn"), ExitStatus::PlanOutdated);
    EXPECT_EQ(exitStatusForPlan("failed", "apply"), ExitStatus::ApplyFailed);
    EXPECT_EQ(exitStatusForPlan("cancelled", ""), ExitStatus::PlanCancelled);
    EXPECT_EQ(static_cast<int>(ExitStatus::NoSuchPlan), 16);
    EXPECT_EQ(static_cast<int>(ExitStatus::PlanOutdated), 17);
    EXPECT_EQ(static_cast<int>(ExitStatus::PlanCancelled), 18);
}

TEST(ExitStatus, APlanNotFinishedOrOfAnUnknownReasonIsAFailure)
{
    EXPECT_EQ(exitStatusForPlan("pending", ""), ExitStatus::Failure);
    EXPECT_EQ(exitStatusForPlan("rejected", ""), ExitStatus::Failure);
    EXPECT_EQ(exitStatusForPlan("rejected", "whatever"), ExitStatus::Failure);
}

}  // namespace
}  // namespace resized::ctl
