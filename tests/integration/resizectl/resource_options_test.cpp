// A change's resources as `set` reads them: options, systemd's assignments,
// and the options' long names as assignment keys.

#include <gtest/gtest.h>

#include "resource_options.h"
#include "systemd_assignment.h"

namespace resized::ctl {
namespace {

constexpr uint64_t kMi = 1ull << 20;
constexpr uint64_t kGi = 1ull << 30;

TEST(ResourceAssignment, AnOptionsLongNameIsAKeyReadAsTheOptionReadsIt)
{
    EXPECT_EQ(parseResourceAssignment("cpus=1.5").cpuMillis, 1500u);
    EXPECT_EQ(parseResourceAssignment("cpu=500m").cpuMillis, 500u);
    EXPECT_EQ(parseResourceAssignment("memory=1g").memoryMax, kGi);
    EXPECT_EQ(parseResourceAssignment("memory=max").memoryMax, core::kUnlimited);
    EXPECT_EQ(parseResourceAssignment("memory-high=512Mi").memoryHigh, 512 * kMi);
    EXPECT_EQ(parseResourceAssignment("cpu-shares=1024").cpuWeight, 100u);
    EXPECT_EQ(parseResourceAssignment("cpu-weight=200").cpuWeight, 200u);
    EXPECT_EQ(parseResourceAssignment("cpuset-cpus=0-1").allowedCpus, core::CpuSet({0, 1}));
}

TEST(ResourceAssignment, SystemdPropertiesStillWork)
{
    EXPECT_EQ(parseResourceAssignment("CPUQuota=150%").cpuMillis, 1500u);
    EXPECT_EQ(parseResourceAssignment("MemoryMax=1G").memoryMax, kGi);
}

TEST(ResourceAssignment, ShortNamesAndUnreadableValuesAreRefused)
{
    // -m and -c are flags, not keys.
    EXPECT_THROW(parseResourceAssignment("m=1g"), AssignmentError);
    EXPECT_THROW(parseResourceAssignment("cpus=lots"), AssignmentError);
    EXPECT_THROW(parseResourceAssignment("cpus"), AssignmentError);
    try {
        parseResourceAssignment("memory=1x");
        FAIL();
    } catch (const AssignmentError& error) {
        EXPECT_STREQ(error.what(), "memory=1x: '1x' is not a memory quantity");
    }
}

TEST(ResourceArguments, ANameTwiceIsRefusedWhicheverWayItIsWritten)
{
    ResourceArguments twice;
    twice.fromOptions.cpuMillis = 1000;
    twice.assignments = {"cpus=2"};
    EXPECT_THROW(twice.resolve(), CLI::ValidationError);
    twice.assignments = {"CPUQuota=100%"};
    EXPECT_THROW(twice.resolve(), CLI::ValidationError);

    ResourceArguments mixed;
    mixed.assignments = {"cpus=2", "MemoryMax=1G"};
    const core::Resources resolved = mixed.resolve().resources;
    EXPECT_EQ(resolved.cpuMillis, 2000u);
    EXPECT_EQ(resolved.memoryMax, kGi);
}

}  // namespace
}  // namespace resized::ctl
