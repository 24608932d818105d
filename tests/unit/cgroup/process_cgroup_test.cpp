// Which cgroup a process is in, as /proc/PID/cgroup says: the memory
// hierarchy on cgroup v1 (where a runtime's path is the same for every
// controller), the unified one on v2.

#include "cgroup/process_cgroup.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "cgroup/limits_backend.h"

namespace resized::cgroup {
namespace {

TEST(ProcessCgroup, UnifiedHierarchyAlone)
{
    EXPECT_EQ(cgroupFromProcFile("0::/machine.slice/libpod-ab12.scope\n"), "/machine.slice/libpod-ab12.scope");
}

TEST(ProcessCgroup, MemoryControllerWinsOverTheUnifiedHierarchyOfAHybridHost)
{
    const char* hybrid =
        "12:cpuset:/libpod_parent/libpod-ab12\n"
        "7:cpu,cpuacct:/libpod_parent/libpod-ab12\n"
        "4:memory:/libpod_parent/libpod-ab12\n"
        "1:name=systemd:/user.slice\n"
        "0::/user.slice/session-1.scope\n";
    EXPECT_EQ(cgroupFromProcFile(hybrid), "/libpod_parent/libpod-ab12");
}

TEST(ProcessCgroup, ControllerIsMatchedWholeNotAsASubstring)
{
    EXPECT_EQ(cgroupFromProcFile("3:memory_pressure:/x\n0::/y\n"), "/y");
}

TEST(ProcessCgroup, ColonsInThePathAreKept)
{
    EXPECT_EQ(cgroupFromProcFile("0::/a:b/c"), "/a:b/c");
}

TEST(ProcessCgroup, NothingUsableIsNullopt)
{
    EXPECT_EQ(cgroupFromProcFile(""), std::nullopt);
    EXPECT_EQ(cgroupFromProcFile("1:name=systemd:/user.slice\n"), std::nullopt);
    EXPECT_EQ(cgroupFromProcFile("garbage\n4:memory:relative\n"), std::nullopt);
}

TEST(ProcessCgroup, ThisProcessIsInACgroupThatExists)
{
    const std::string cgroup = cgroupOfProcess(getpid());
    ASSERT_EQ(cgroup.front(), '/');
    const std::filesystem::path root("/sys/fs/cgroup");
    const std::filesystem::path relative = cgroup.substr(1);
    EXPECT_TRUE(std::filesystem::is_directory(root / "memory" / relative) ||
                std::filesystem::is_directory(root / relative))
        << cgroup;
}

TEST(ProcessCgroup, AProcessThatIsGoneIsAnError)
{
    EXPECT_THROW(cgroupOfProcess(0x3fffffff), CgroupError);
}

}  // namespace
}  // namespace resized::cgroup
