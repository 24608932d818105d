// systemctl set-property's assignments, read as systemd reads them, become
// the resources resized holds.

#include <gtest/gtest.h>

#include "systemd_assignment.h"

namespace resized::ctl {
namespace {

constexpr uint64_t kMi = 1ull << 20;
constexpr uint64_t kGi = 1ull << 30;

TEST(SystemdAssignment, CpuQuotaIsPercentOfOneCpu)
{
    EXPECT_EQ(parseSystemdAssignment("CPUQuota=150%").cpuMillis, 1500u);
    EXPECT_EQ(parseSystemdAssignment("CPUQuota=20%").cpuMillis, 200u);
    EXPECT_EQ(parseSystemdAssignment("CPUQuota=12.5%").cpuMillis, 125u);
    EXPECT_EQ(parseSystemdAssignment("CPUQuota=400%").cpuMillis, 4000u);
}

TEST(SystemdAssignment, EmptyCpuQuotaRemovesTheLimit)
{
    EXPECT_EQ(parseSystemdAssignment("CPUQuota=").cpuMillis, core::kUnlimited);
}

TEST(SystemdAssignment, CpuQuotaFinerThanAMillicoreIsRefused)
{
    EXPECT_THROW(parseSystemdAssignment("CPUQuota=12.34%"), AssignmentError);
    EXPECT_THROW(parseSystemdAssignment("CPUQuota=1.5"), AssignmentError);
}

TEST(SystemdAssignment, MemoryTakesPowersOf1024AndInfinity)
{
    EXPECT_EQ(parseSystemdAssignment("MemoryMax=1G").memoryMax, kGi);
    EXPECT_EQ(parseSystemdAssignment("MemoryMax=512M").memoryMax, 512 * kMi);
    EXPECT_EQ(parseSystemdAssignment("MemoryHigh=1.5G").memoryHigh, 1536 * kMi);
    EXPECT_EQ(parseSystemdAssignment("MemoryMax=infinity").memoryMax, core::kUnlimited);
    EXPECT_EQ(parseSystemdAssignment("MemoryHigh=").memoryHigh, core::kUnlimited);
    EXPECT_EQ(parseSystemdAssignment("MemoryMax=").memoryMax, core::kUnlimited);
}

TEST(SystemdAssignment, MemoryAsAShareOfTheMachineIsRefused)
{
    EXPECT_THROW(parseSystemdAssignment("MemoryMax=50%"), AssignmentError);
    EXPECT_THROW(parseSystemdAssignment("MemoryMax=1Gi"), AssignmentError);
    EXPECT_THROW(parseSystemdAssignment("MemoryMax=max"), AssignmentError);
}

TEST(SystemdAssignment, CpuWeightIsAWholeNumberAndEmptyIsTheDefault)
{
    EXPECT_EQ(parseSystemdAssignment("CPUWeight=500").cpuWeight, 500u);
    EXPECT_EQ(parseSystemdAssignment("CPUWeight=").cpuWeight, 100u);
    EXPECT_THROW(parseSystemdAssignment("CPUWeight=idle"), AssignmentError);
    EXPECT_THROW(parseSystemdAssignment("CPUWeight=heavy"), AssignmentError);
}

TEST(SystemdAssignment, AllowedCpusTakesCommasAndBlanks)
{
    EXPECT_EQ(parseSystemdAssignment("AllowedCPUs=0-1").allowedCpus, (core::CpuSet{0, 1}));
    EXPECT_EQ(parseSystemdAssignment("AllowedCPUs=0 2 3").allowedCpus, (core::CpuSet{0, 2, 3}));
    EXPECT_EQ(parseSystemdAssignment("AllowedCPUs=0, 1").allowedCpus, (core::CpuSet{0, 1}));
    EXPECT_EQ(parseSystemdAssignment("AllowedCPUs=").allowedCpus, core::CpuSet{});
    EXPECT_THROW(parseSystemdAssignment("AllowedCPUs=3-1"), AssignmentError);
    EXPECT_THROW(parseSystemdAssignment("AllowedCPUs=all"), AssignmentError);
}

TEST(SystemdAssignment, SetsOnlyTheNamedResource)
{
    const core::Resources resources = parseSystemdAssignment("MemoryMax=1G");
    EXPECT_FALSE(resources.cpuMillis);
    EXPECT_FALSE(resources.memoryHigh);
    EXPECT_FALSE(resources.cpuWeight);
    EXPECT_FALSE(resources.allowedCpus);
}

TEST(SystemdAssignment, OtherPropertiesAndOtherWordsAreRefusedByName)
{
    try {
        parseSystemdAssignment("IOWeight=100");
        FAIL() << "IOWeight= was accepted";
    } catch (const AssignmentError& error) {
        EXPECT_STREQ(error.what(), "IOWeight= is not a property resizectl sets; it takes CPUQuota=, MemoryMax=, "
                                   "MemoryHigh=, CPUWeight= and AllowedCPUs=");
    }
    EXPECT_THROW(parseSystemdAssignment("cpuquota=150%"), AssignmentError);
    EXPECT_THROW(parseSystemdAssignment("150%"), AssignmentError);
}

}  // namespace
}  // namespace resized::ctl
