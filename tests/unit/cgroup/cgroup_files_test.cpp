#include "cgroup/cgroup_files.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <filesystem>
#include <optional>
#include <vector>

#include "cgroup/limits_backend.h"
#include "temp_directory.h"

namespace resized::cgroup {
namespace {

using test::readText;
using test::TempDirectory;
using test::writeText;

TEST(CgroupFiles, ReadsAndWritesWholeFiles)
{
    TempDirectory dir;
    writeText(dir.path() / "cpu.weight", "100\n");
    EXPECT_EQ(readFile(dir.path() / "cpu.weight"), "100\n");

    writeFile(dir.path() / "cpu.weight", "7");
    EXPECT_EQ(readText(dir.path() / "cpu.weight"), "7");
}

TEST(CgroupFiles, ReadsFilesLargerThanOneRead)
{
    TempDirectory dir;
    const std::string big(10000, 'x');
    writeText(dir.path() / "big", big);
    EXPECT_EQ(readFile(dir.path() / "big"), big);
}

TEST(CgroupFiles, ErrorsNameThePathAndTheReason)
{
    TempDirectory dir;
    const auto missing = dir.path() / "memory.max";
    try {
        readFile(missing);
        FAIL() << "read a missing file";
    } catch (const CgroupError& error) {
        EXPECT_EQ(error.error(), ENOENT);
        EXPECT_NE(std::string(error.what()).find(missing.string()), std::string::npos) << error.what();
        EXPECT_NE(std::string(error.what()).find("No such file"), std::string::npos) << error.what();
    }
    EXPECT_THROW(writeFile(missing, "1"), CgroupError);
    EXPECT_FALSE(std::filesystem::exists(missing)) << "writing must not create cgroup files";
    EXPECT_EQ(readFileIfExists(missing), std::nullopt);
}

// Held past its capacity, HeldFiles closes them all and goes on reading
// each file as it is.
TEST(HeldFiles, PastItsCapacityEveryFileReadsAsItIs)
{
    std::vector<std::filesystem::path> files;
    for (const char* file : {"/sys/fs/cgroup/cpu/cpu.shares", "/sys/fs/cgroup/memory/memory.limit_in_bytes",
                             "/sys/fs/cgroup/cpuset/cpuset.cpus", "/sys/fs/cgroup/cgroup.controllers",
                             "/sys/fs/cgroup/cgroup.subtree_control", "/sys/fs/cgroup/cgroup.max.depth"})
        if (std::filesystem::exists(file))
            files.emplace_back(file);
    if (files.size() < 3)
        GTEST_SKIP() << "this machine mounts no cgroup hierarchy at /sys/fs/cgroup";
    HeldFiles held(2);
    for (int round = 0; round < 3; ++round)
        for (const auto& file : files)
            EXPECT_EQ(held.readIfExists(file), readFile(file)) << file;
    EXPECT_EQ(held.readIfExists("/sys/fs/cgroup/no-such-file"), std::nullopt);
}

// Outside a cgroup file system nothing is held: a file made again at its
// path reads as the new one.
TEST(HeldFiles, AFileMadeAgainOutsideACgroupFileSystemReadsAsTheNewOne)
{
    TempDirectory dir;
    writeText(dir.path() / "cpu.max", "max 100000\n");
    HeldFiles held(8);
    EXPECT_EQ(held.readIfExists(dir.path() / "cpu.max"), "max 100000\n");

    writeText(dir.path() / "cpu.max.new", "50000 100000\n");
    std::filesystem::rename(dir.path() / "cpu.max.new", dir.path() / "cpu.max");
    EXPECT_EQ(held.readIfExists(dir.path() / "cpu.max"), "50000 100000\n");
    std::filesystem::remove(dir.path() / "cpu.max");
    EXPECT_EQ(held.readIfExists(dir.path() / "cpu.max"), std::nullopt);
}

TEST(ResolveCgroupDirectory, JoinsRootAndRuntimePath)
{
    TempDirectory dir;
    std::filesystem::create_directories(dir.path() / "libpod_parent" / "libpod-abc");
    const auto expected = std::filesystem::canonical(dir.path() / "libpod_parent" / "libpod-abc");
    EXPECT_EQ(resolveCgroupDirectory(dir.path(), "/libpod_parent/libpod-abc"), expected);
    EXPECT_EQ(resolveCgroupDirectory(dir.path(), "libpod_parent/libpod-abc/"), expected);
    EXPECT_EQ(resolveCgroupDirectory(dir.path(), "/libpod_parent/./libpod-abc"), expected);
    EXPECT_EQ(resolveCgroupDirectory(dir.path(), "/"), std::filesystem::canonical(dir.path()));
    EXPECT_EQ(resolveCgroupDirectory(dir.path(), "/not-yet/there"),
              std::filesystem::canonical(dir.path()) / "not-yet" / "there");
}

TEST(ResolveCgroupDirectory, RefusesDotDot)
{
    TempDirectory dir;
    std::filesystem::create_directories(dir.path() / "a" / "b");
    for (const char* path : {"/..", "/../etc", "/a/../..", "/a/b/../../../x", "a/..", ".."})
        EXPECT_THROW(resolveCgroupDirectory(dir.path(), path), CgroupError) << path;
}

TEST(ResolveCgroupDirectory, RefusesNul)
{
    TempDirectory dir;
    using namespace std::string_view_literals;
    EXPECT_THROW(resolveCgroupDirectory(dir.path(), "/a\0/../../etc"sv), CgroupError);
}

TEST(ResolveCgroupDirectory, RefusesSymlinkOutOfTheRoot)
{
    TempDirectory dir;
    TempDirectory outside;
    std::filesystem::create_directories(dir.path() / "root" / "inside");
    std::filesystem::create_directory_symlink(outside.path(), dir.path() / "root" / "escape");
    std::filesystem::create_directory_symlink(dir.path() / "root" / "inside",
                                              dir.path() / "root" / "alias");
    const auto root = dir.path() / "root";

    EXPECT_THROW(resolveCgroupDirectory(root, "/escape"), CgroupError);
    EXPECT_THROW(resolveCgroupDirectory(root, "/escape/child"), CgroupError);
    EXPECT_EQ(resolveCgroupDirectory(root, "/alias"), std::filesystem::canonical(root / "inside"));
}

TEST(ResolveCgroupDirectory, FollowsARootThatIsASymlink)
{
    // Some distributions mount cpu,cpuacct and link cpu to it.
    TempDirectory dir;
    std::filesystem::create_directories(dir.path() / "cpu,cpuacct" / "workload");
    std::filesystem::create_directory_symlink(dir.path() / "cpu,cpuacct", dir.path() / "cpu");
    EXPECT_EQ(resolveCgroupDirectory(dir.path() / "cpu", "/workload"),
              std::filesystem::canonical(dir.path() / "cpu,cpuacct" / "workload"));
}

// Under a real cgroup mount resized skips realpath(3) (no symlink can be
// made there): the paths must come out as realpath would give them, also
// through the cpu -> cpu,cpuacct link, with a trailing "/" and for a cgroup
// that does not exist.
TEST(ResolveCgroupDirectory, OnThisMachinesCgroupMountsIsWhatRealpathGives)
{
    std::vector<std::filesystem::path> roots;
    for (const auto& entry : std::filesystem::directory_iterator("/sys/fs/cgroup"))
        if (entry.is_directory())
            roots.push_back(entry.path());
    if (std::filesystem::exists("/sys/fs/cgroup/cgroup.controllers"))
        roots.emplace_back("/sys/fs/cgroup");
    ASSERT_FALSE(roots.empty()) << "no cgroup mount under /sys/fs/cgroup";
    for (const auto& root : roots) {
        SCOPED_TRACE(root);
        const auto real = std::filesystem::canonical(root);
        EXPECT_EQ(resolveCgroupDirectory(root, "/"), real);
        EXPECT_EQ(resolveCgroupDirectory(root, ""), real);
        EXPECT_EQ(resolveParentDirectory(root, "/"), real);
        EXPECT_EQ(resolveCgroupDirectory(root, "/not-a-cgroup/below/"), real / "not-a-cgroup" / "below");
        // A plain path, as runtimes give them, and the same spelled
        // otherwise resolve alike; the plain case does not skip a check.
        EXPECT_EQ(resolveCgroupDirectory(root, "/a/b"), real / "a" / "b");
        EXPECT_EQ(resolveCgroupDirectory(root, "/a/./b"), real / "a" / "b");
        EXPECT_EQ(resolveCgroupDirectory(root, "a/b"), real / "a" / "b");
        EXPECT_THROW(resolveCgroupDirectory(root, "/a/../.."), CgroupError);
        using namespace std::string_view_literals;
        EXPECT_THROW(resolveCgroupDirectory(root, "/a\0b"sv), CgroupError);
        for (const auto& child : std::filesystem::directory_iterator(root)) {
            if (!child.is_directory())
                continue;
            const std::string cgroup = "/" + child.path().filename().string();
            EXPECT_EQ(resolveCgroupDirectory(root, cgroup), std::filesystem::canonical(child.path()));
            EXPECT_EQ(resolveCgroupDirectory(root, cgroup + "/"), std::filesystem::canonical(child.path()));
            EXPECT_EQ(resolveParentDirectory(root, cgroup), real);
            break;
        }
    }
}

TEST(ResolveParentDirectory, IsTheRootForTheRoot)
{
    TempDirectory dir;
    std::filesystem::create_directories(dir.path() / "a" / "b");
    const auto root = std::filesystem::canonical(dir.path());
    EXPECT_EQ(resolveParentDirectory(dir.path(), "/a/b"), root / "a");
    EXPECT_EQ(resolveParentDirectory(dir.path(), "/a"), root);
    EXPECT_EQ(resolveParentDirectory(dir.path(), "/"), root);
}

}  // namespace
}  // namespace resized::cgroup
