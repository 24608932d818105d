#include "cgroup/cgroupfs_v1.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>

#include "cgroup/usage_files.h"
#include "child_process.h"
#include "v1_test_cgroup.h"

// The v1 backend against real cgroup v1 hierarchies of this host.
namespace resized::cgroup {
namespace {

using core::kUnlimited;
using test::kCgroupRoot;
using test::V1TestCgroup;

constexpr uint64_t kMi = 1 << 20;

class CgroupfsV1 : public ::testing::Test {
protected:
    void SetUp() override
    {
        if (const auto reason = test::missingCgroupV1(); !reason.empty())
            GTEST_SKIP() << reason;
        cgroup_.emplace();
    }

    const V1TestCgroup& cgroup() const { return *cgroup_; }
    const std::string& child() const { return cgroup_->child(); }

    std::optional<V1TestCgroup> cgroup_;
    CgroupfsV1Backend backend_{kCgroupRoot};
};

TEST_F(CgroupfsV1, ReadsANewCgroupAsUnlimited)
{
    EXPECT_EQ(backend_.driverName(), "cgroupfs-v1");
    const core::Resources expected{.cpuMillis = kUnlimited,
                                   .memoryMax = kUnlimited,
                                   .memoryHigh = kUnlimited,
                                   .cpuWeight = 100,
                                   .allowedCpus = core::CpuSet{},
                                   .memoryNodes = core::CpuSet{}};
    EXPECT_EQ(backend_.read(child()), expected);
}

// Gone from one mounted hierarchy, the cgroup is gone: not one that holds
// no limits of that controller.
TEST_F(CgroupfsV1, ACgroupMissingFromOneHierarchyIsGone)
{
    ASSERT_TRUE(backend_.exists(child()));
    ASSERT_EQ(rmdir(cgroup().file("memory", "").parent_path().c_str()), 0) << std::strerror(errno);

    EXPECT_FALSE(backend_.exists(child()));
    try {
        backend_.read(child());
        ADD_FAILURE() << "read a cgroup missing from the memory hierarchy";
    } catch (const CgroupError& error) {
        EXPECT_EQ(error.error(), ENOENT) << error.what();
    }
}

// The backend holds the files it read open (HeldFiles): a cgroup removed
// since reads as gone, and one made again at its path as the new one.
TEST_F(CgroupfsV1, ACgroupRemovedOrMadeAgainSinceItsLastReadIsReadAfresh)
{
    backend_.write(child(), {.cpuMillis = 700});
    ASSERT_EQ(backend_.read(child()).cpuMillis, 700u);
    const std::array<std::string_view, 3> controllers{"cpu", "memory", "cpuset"};
    for (const auto controller : controllers)
        ASSERT_EQ(rmdir(cgroup().file(controller, "").parent_path().c_str()), 0) << std::strerror(errno);

    try {
        backend_.read(child());
        ADD_FAILURE() << "read a removed cgroup";
    } catch (const CgroupError& error) {
        EXPECT_EQ(error.error(), ENOENT) << error.what();
    }

    for (const auto controller : controllers)
        ASSERT_EQ(mkdir(cgroup().file(controller, "").parent_path().c_str(), 0755), 0) << std::strerror(errno);
    cgroup().write("cpuset", "cpuset.cpus", cgroup().read("cpuset", "../cpuset.cpus"));
    cgroup().write("cpuset", "cpuset.mems", cgroup().read("cpuset", "../cpuset.mems"));
    EXPECT_EQ(backend_.read(child()).cpuMillis, kUnlimited);
    cgroup().write("cpu", "cpu.cfs_quota_us", "30000");
    EXPECT_EQ(backend_.read(child()).cpuMillis, 300u);
}

TEST_F(CgroupfsV1, CpuMillis)
{
    backend_.write(child(), {.cpuMillis = 1500});
    EXPECT_EQ(cgroup().read("cpu", "cpu.cfs_quota_us"), "150000");
    EXPECT_EQ(cgroup().read("cpu", "cpu.cfs_period_us"), "100000");
    EXPECT_EQ(backend_.read(child()).cpuMillis, 1500u);

    backend_.write(child(), {.cpuMillis = 5});
    EXPECT_EQ(cgroup().read("cpu", "cpu.cfs_quota_us"), "5000");
    EXPECT_EQ(cgroup().read("cpu", "cpu.cfs_period_us"), "1000000");
    EXPECT_EQ(backend_.read(child()).cpuMillis, 5u);

    backend_.write(child(), {.cpuMillis = 250});
    EXPECT_EQ(cgroup().read("cpu", "cpu.cfs_quota_us"), "25000");
    EXPECT_EQ(cgroup().read("cpu", "cpu.cfs_period_us"), "100000");
    EXPECT_EQ(backend_.read(child()).cpuMillis, 250u);

    backend_.write(child(), {.cpuMillis = kUnlimited});
    EXPECT_EQ(cgroup().read("cpu", "cpu.cfs_quota_us"), "-1");
    EXPECT_EQ(backend_.read(child()).cpuMillis, kUnlimited);
}

TEST_F(CgroupfsV1, CpuMillisRoundsToTheNearestMillicore)
{
    cgroup().write("cpu", "cpu.cfs_quota_us", "33333");
    EXPECT_EQ(backend_.read(child()).cpuMillis, 333u);
    cgroup().write("cpu", "cpu.cfs_quota_us", "66667");
    EXPECT_EQ(backend_.read(child()).cpuMillis, 667u);
}

TEST_F(CgroupfsV1, MemoryMax)
{
    backend_.write(child(), {.memoryMax = 64 * kMi});
    EXPECT_EQ(cgroup().read("memory", "memory.limit_in_bytes"), std::to_string(64 * kMi));
    EXPECT_EQ(backend_.read(child()).memoryMax, 64 * kMi);

    backend_.write(child(), {.memoryMax = kUnlimited});
    EXPECT_GE(std::stoull(cgroup().read("memory", "memory.limit_in_bytes")), 1ull << 62);
    EXPECT_EQ(backend_.read(child()).memoryMax, kUnlimited);
}

TEST_F(CgroupfsV1, RaisingMemoryRaisesMemoryPlusSwapFirst)
{
    if (!std::filesystem::exists(cgroup().file("memory", "memory.memsw.limit_in_bytes")))
        GTEST_SKIP() << "no swap accounting (memory.memsw.*) on this kernel";
    cgroup().write("memory", "memory.limit_in_bytes", std::to_string(64 * kMi));
    cgroup().write("memory", "memory.memsw.limit_in_bytes", std::to_string(64 * kMi));

    backend_.write(child(), {.memoryMax = 128 * kMi});
    EXPECT_EQ(cgroup().read("memory", "memory.limit_in_bytes"), std::to_string(128 * kMi));
    EXPECT_EQ(cgroup().read("memory", "memory.memsw.limit_in_bytes"), std::to_string(128 * kMi));

    backend_.write(child(), {.memoryMax = 32 * kMi});
    EXPECT_EQ(cgroup().read("memory", "memory.limit_in_bytes"), std::to_string(32 * kMi));
    EXPECT_EQ(cgroup().read("memory", "memory.memsw.limit_in_bytes"), std::to_string(128 * kMi));

    backend_.write(child(), {.memoryMax = kUnlimited});
    EXPECT_EQ(backend_.read(child()).memoryMax, kUnlimited);
    EXPECT_GE(std::stoull(cgroup().read("memory", "memory.memsw.limit_in_bytes")), 1ull << 62);
}

TEST_F(CgroupfsV1, MemoryHighIsTheSoftLimit)
{
    backend_.write(child(), {.memoryHigh = 48 * kMi});
    EXPECT_EQ(cgroup().read("memory", "memory.soft_limit_in_bytes"), std::to_string(48 * kMi));
    EXPECT_EQ(backend_.read(child()).memoryHigh, 48 * kMi);

    backend_.write(child(), {.memoryHigh = kUnlimited});
    EXPECT_EQ(backend_.read(child()).memoryHigh, kUnlimited);
}

TEST_F(CgroupfsV1, CpuWeightIsShares)
{
    const std::pair<uint64_t, const char*> cases[] = {
        {100, "1024"}, {200, "2048"}, {1, "10"}, {10000, "102400"}, {7, "71"}};
    for (const auto& [weight, shares] : cases) {
        backend_.write(child(), {.cpuWeight = weight});
        EXPECT_EQ(cgroup().read("cpu", "cpu.shares"), shares);
        EXPECT_EQ(backend_.read(child()).cpuWeight, weight);
    }
}

TEST(SharesMapping, FollowsSystemd)
{
    EXPECT_EQ(sharesForWeight(100), 1024u);
    EXPECT_EQ(sharesForWeight(1), 10u);
    EXPECT_EQ(sharesForWeight(10000), 102400u);
    EXPECT_EQ(weightForShares(1024), 100u);
    EXPECT_EQ(weightForShares(2), 1u) << "clamped to the smallest weight";
    EXPECT_EQ(weightForShares(262144), 10000u) << "clamped to the largest weight";
    EXPECT_EQ(weightForShares(1536), 150u);
    for (uint64_t weight = 1; weight <= 10000; ++weight)
        ASSERT_EQ(weightForShares(sharesForWeight(weight)), weight);
}

TEST_F(CgroupfsV1, AllowedCpus)
{
    backend_.write(child(), {.allowedCpus = core::CpuSet{1}});
    EXPECT_EQ(cgroup().read("cpuset", "cpuset.cpus"), "1");
    EXPECT_EQ(backend_.read(child()).allowedCpus, core::CpuSet{1});

    // A v1 cpuset is never empty: "all" is all the parent offers.
    backend_.write(child(), {.allowedCpus = core::CpuSet{}});
    const auto rootCpus = cgroup().read("cpuset", "cpuset.cpus");
    EXPECT_EQ(core::parseCpuSet(rootCpus), backend_.parentCpus(child()));
    EXPECT_EQ(backend_.read(child()).allowedCpus, core::CpuSet{});
}

TEST_F(CgroupfsV1, MemoryNodes)
{
    const auto parentNodes = backend_.parentMemoryNodes(child());
    ASSERT_FALSE(parentNodes.empty());
    const unsigned node = *parentNodes.begin();
    backend_.write(child(), {.memoryNodes = core::CpuSet{node}});
    EXPECT_EQ(cgroup().read("cpuset", "cpuset.mems"), std::to_string(node));

    // As a cpuset: "all" is all the parent offers, and reads as no limit.
    backend_.write(child(), {.memoryNodes = core::CpuSet{}});
    EXPECT_EQ(core::parseCpuSet(cgroup().read("cpuset", "cpuset.mems")), parentNodes);
    EXPECT_EQ(backend_.read(child()).memoryNodes, core::CpuSet{});
}

TEST_F(CgroupfsV1, TheKernelRefusesCpusOutsideTheParent)
{
    cgroup_.reset();
    cgroup_.emplace("0");
    EXPECT_EQ(backend_.parentCpus(child()), (core::CpuSet{0}));
    EXPECT_EQ(backend_.read(child()).allowedCpus, core::CpuSet{});
    EXPECT_THROW(backend_.write(child(), {.allowedCpus = core::CpuSet{1}}), CgroupError);
    EXPECT_EQ(cgroup().read("cpuset", "cpuset.cpus"), "0");
}

TEST_F(CgroupfsV1, MemoryUsageCountsWhatTheCgroupHolds)
{
    const uint64_t before = backend_.memoryUsage(child());
    test::MemoryHolder holder(test::MemoryKind::Anonymous, 32 * kMi,
                              [&](pid_t pid) { cgroup().join(pid); });
    EXPECT_GE(backend_.memoryUsage(child()), before + 32 * kMi);
    EXPECT_NO_THROW(backend_.reclaim(child(), 16 * kMi)) << "reclaim is a no-op on v1";
}

TEST_F(CgroupfsV1, UsageCountsTheCgroupsCpuAndMemory)
{
    const Usage before = backend_.usage(child());
    test::MemoryHolder holder(test::MemoryKind::Anonymous, 32 * kMi,
                              [&](pid_t pid) { cgroup().join(pid); });

    const Usage usage = backend_.usage(child());

    // Touching 32 MiB takes CPU time, charged where the holder joined.
    EXPECT_GT(usage.cpuNsec, before.cpuNsec);
    EXPECT_GE(usage.memoryBytes, before.memoryBytes + 32 * kMi);
    // Anonymous memory is never inactive file cache.
    EXPECT_GE(usage.workingSetBytes(), 32 * kMi);
    EXPECT_EQ(usage.oomKills, 0u);
}

TEST_F(CgroupfsV1, UsageFilesHeldOpenReadTheCountersAfresh)
{
    const UsageFiles files = backend_.openUsage(child());
    const Usage before = files.read();
    test::MemoryHolder holder(test::MemoryKind::Anonymous, 32 * kMi,
                              [&](pid_t pid) { cgroup().join(pid); });

    const Usage after = files.read();

    EXPECT_GT(after.cpuNsec, before.cpuNsec);
    EXPECT_GE(after.memoryBytes, before.memoryBytes + 32 * kMi);
}

TEST_F(CgroupfsV1, RefusesPathsOutOfTheRoot)
{
    EXPECT_THROW(backend_.read(cgroup().parent() + "/../.."), CgroupError);
    EXPECT_THROW(backend_.write("/../../etc", {.cpuWeight = 5}), CgroupError);
}

}  // namespace
}  // namespace resized::cgroup
