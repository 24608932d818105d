#include "cgroup/detect.h"

#include <linux/magic.h>
#include <sys/vfs.h>

#include <gtest/gtest.h>

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

TEST(VersionName, IsWhatTheBusReports)
{
    EXPECT_EQ(versionName(CgroupVersion::V1), "v1");
    EXPECT_EQ(versionName(CgroupVersion::V2), "v2");
}

}  // namespace
}  // namespace resized::cgroup
