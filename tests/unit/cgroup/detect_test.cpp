#include "cgroup/detect.h"

#include <linux/magic.h>
#include <sys/vfs.h>

#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "temp_directory.h"

namespace resized::cgroup {
namespace {

bool isCgroup2Mount(const char* path)
{
    struct statfs filesystem {};
    return statfs(path, &filesystem) == 0 && filesystem.f_type == CGROUP2_SUPER_MAGIC;
}

TEST(DetectCgroupVersion, APlainDirectoryIsV1)
{
    test::TempDirectory dir;
    EXPECT_EQ(detectCgroupVersion(dir.path()), CgroupVersion::V1);
    EXPECT_EQ(makeCgroupfsBackend(dir.path())->driverName(), "cgroupfs-v1");
}

TEST(DetectCgroupVersion, ThisHost)
{
    const bool unified = isCgroup2Mount("/sys/fs/cgroup");
    EXPECT_EQ(detectCgroupVersion(), unified ? CgroupVersion::V2 : CgroupVersion::V1);
    EXPECT_EQ(makeCgroupfsBackend()->driverName(), unified ? "cgroupfs-v2" : "cgroupfs-v1");
}

TEST(DetectCgroupVersion, HybridUnifiedMountIsV2)
{
    if (!isCgroup2Mount("/sys/fs/cgroup/unified"))
        GTEST_SKIP() << "no hybrid cgroup2 mount at /sys/fs/cgroup/unified";
    EXPECT_EQ(detectCgroupVersion("/sys/fs/cgroup/unified"), CgroupVersion::V2);
    EXPECT_EQ(makeCgroupfsBackend("/sys/fs/cgroup/unified")->driverName(), "cgroupfs-v2");
}

TEST(DetectCgroupVersion, MissingRootThrows)
{
    EXPECT_THROW(detectCgroupVersion("/nonexistent/cgroup"), CgroupError);
}

TEST(PressureUnavailable, CgroupV1KeepsNoneAndSaysSo)
{
    test::TempDirectory dir;
    const auto why = pressureUnavailable(dir.path());
    ASSERT_TRUE(why);
    EXPECT_NE(why->find("cgroup v1"), std::string::npos) << *why;
    EXPECT_NE(why->find("PSI"), std::string::npos) << *why;
}

TEST(PressureUnavailable, ThisHost)
{
    std::ifstream cpuPressure("/proc/pressure/cpu");
    std::string line;
    const bool kept = isCgroup2Mount("/sys/fs/cgroup") && std::getline(cpuPressure, line);
    EXPECT_EQ(pressureUnavailable().has_value(), !kept) << pressureUnavailable().value_or("");
}

TEST(VersionName, IsWhatTheBusReports)
{
    EXPECT_EQ(versionName(CgroupVersion::V1), "v1");
    EXPECT_EQ(versionName(CgroupVersion::V2), "v2");
}

}  // namespace
}  // namespace resized::cgroup
