#include "cgroup/applier.h"

#include <gtest/gtest.h>

#include <fstream>
#include <thread>

#include "cgroup/cgroupfs_v1.h"
#include "cgroup/usage_files.h"
#include "child_process.h"
#include "temp_directory.h"
#include "v1_test_cgroup.h"

// ApplyTransaction against real cgroup v1 hierarchies of this host: the
// kernel's own refusals drive the rollbacks.
namespace resized::cgroup {
namespace {

using core::kUnlimited;
using namespace std::chrono_literals;

constexpr uint64_t kMi = 1 << 20;

// The real v1 backend, noting what each write() named, so that a test can
// see the order of the writes.
class RecordingBackend final : public LimitsBackend {
public:
    std::string_view driverName() const override { return real_.driverName(); }
    bool exists(const std::string& cgroup) const override { return real_.exists(cgroup); }
    core::Resources read(const std::string& cgroup) const override { return real_.read(cgroup); }
    void write(const std::string& cgroup, const core::Resources& limits) override
    {
        writes.push_back(core::describe(limits));
        real_.write(cgroup, limits);
    }
    UnreportedLimits readUnreported(const std::string& cgroup) const override
    {
        return real_.readUnreported(cgroup);
    }
    void restoreUnreported(const std::string& cgroup, const UnreportedLimits& saved) override
    {
        real_.restoreUnreported(cgroup, saved);
    }
    uint64_t memoryUsage(const std::string& cgroup) const override
    {
        return real_.memoryUsage(cgroup);
    }
    UsageFiles openUsage(const std::string& cgroup) const override { return real_.openUsage(cgroup); }
    void reclaim(const std::string& cgroup, uint64_t bytes) override { real_.reclaim(cgroup, bytes); }
    core::CpuSet parentCpus(const std::string& cgroup) const override
    {
        return real_.parentCpus(cgroup);
    }
    core::CpuSet parentMemoryNodes(const std::string& cgroup) const override
    {
        return real_.parentMemoryNodes(cgroup);
    }
    std::vector<std::string> childCgroups(const std::string& cgroup) const override
    {
        return real_.childCgroups(cgroup);
    }

    std::vector<std::string> writes;

private:
    CgroupfsV1Backend real_{test::kCgroupRoot};
};

using Writes = std::vector<std::string>;

class ApplierV1 : public ::testing::Test {
protected:
    void SetUp() override
    {
        if (const auto reason = test::missingCgroupV1(); !reason.empty())
            GTEST_SKIP() << reason;
        cgroup_.emplace();
    }

    // Sets the starting limits without recording them.
    void given(const core::Resources& limits)
    {
        CgroupfsV1Backend(test::kCgroupRoot).write(child(), limits);
        backend_.writes.clear();
    }

    ApplyTransaction apply(const core::Resources& target, ApplyOptions options = {})
    {
        ApplyTransaction transaction(backend_, child(), target, options);
        while (const auto delay = transaction.advance())
            std::this_thread::sleep_for(*delay);
        return transaction;
    }

    core::Resources now() const { return backend_.read(child()); }
    const test::V1TestCgroup& cgroup() const { return *cgroup_; }
    const std::string& child() const { return cgroup_->child(); }
    test::MemoryHolder holdMemory(test::MemoryKind kind, uint64_t bytes, const std::string& dir = {})
    {
        return test::MemoryHolder(kind, bytes, [this](pid_t pid) { cgroup().join(pid); }, dir);
    }

    std::optional<test::V1TestCgroup> cgroup_;
    RecordingBackend backend_;
};

TEST_F(ApplierV1, DecreasesBeforeIncreases)
{
    given({.cpuMillis = 1000, .memoryMax = 256 * kMi, .cpuWeight = 100});
    const core::Resources target{
        .cpuMillis = 500, .memoryMax = 512 * kMi, .cpuWeight = 200, .allowedCpus = core::CpuSet{0}};

    const auto transaction = apply(target);

    ASSERT_EQ(transaction.outcome(), ApplyOutcome::Applied) << transaction.message();
    EXPECT_EQ(transaction.message(), "");
    EXPECT_EQ(backend_.writes,
              (Writes{"cpu=500m", "cpus=0", "memory.max=512Mi", "cpu.weight=200"}));
    EXPECT_EQ(transaction.previous().cpuMillis, 1000u);
    EXPECT_EQ(transaction.previous().allowedCpus, core::CpuSet{});
    EXPECT_EQ(now().restrictedTo(target), target);
    EXPECT_EQ(transaction.actual(), now());
    EXPECT_EQ(cgroup().read("cpu", "cpu.cfs_quota_us"), "50000");
    EXPECT_EQ(cgroup().read("cpuset", "cpuset.cpus"), "0");
}

TEST_F(ApplierV1, UnlimitedIsTheLargestValue)
{
    given({.cpuMillis = 2000, .memoryMax = 256 * kMi});
    const auto transaction = apply({.cpuMillis = kUnlimited, .memoryMax = kUnlimited});
    ASSERT_EQ(transaction.outcome(), ApplyOutcome::Applied) << transaction.message();
    EXPECT_EQ(backend_.writes, (Writes{"memory.max=max", "cpu=max"}));
    EXPECT_EQ(now().cpuMillis, kUnlimited);
    EXPECT_EQ(now().memoryMax, kUnlimited);
}

TEST_F(ApplierV1, LeavesUnchangedKeysAlone)
{
    given({.cpuMillis = 1500, .cpuWeight = 100});
    const auto transaction = apply({.cpuMillis = 1500, .cpuWeight = 300, .allowedCpus = core::CpuSet{}});
    ASSERT_EQ(transaction.outcome(), ApplyOutcome::Applied) << transaction.message();
    EXPECT_EQ(backend_.writes, (Writes{"cpu.weight=300"}));
}

TEST_F(ApplierV1, CpusNamingAllTheParentsCpusAreNoRestriction)
{
    given({.allowedCpus = core::CpuSet{0}});
    const auto parentCpus = backend_.parentCpus(child());

    const auto transaction = apply({.allowedCpus = parentCpus});

    ASSERT_EQ(transaction.outcome(), ApplyOutcome::Applied) << transaction.message();
    EXPECT_EQ(cgroup().read("cpuset", "cpuset.cpus"), core::formatCpuSet(parentCpus));
    EXPECT_EQ(transaction.actual().allowedCpus, core::CpuSet{});
}

TEST_F(ApplierV1, CpusTheKernelRefusesRollBackTheCpuLimit)
{
    cgroup_.reset();
    cgroup_.emplace("0");
    given({.cpuMillis = 1500});

    const auto transaction = apply({.cpuMillis = 500, .allowedCpus = core::CpuSet{1}});

    EXPECT_EQ(transaction.outcome(), ApplyOutcome::Failed);
    EXPECT_NE(transaction.message().find("AllowedCpus"), std::string::npos) << transaction.message();
    EXPECT_NE(transaction.message().find("cpuset.cpus"), std::string::npos) << transaction.message();
    // Restored in reverse, the refused key too: a refused write may have
    // changed part of what it touches.
    EXPECT_EQ(backend_.writes, (Writes{"cpu=500m", "cpus=1", "cpus=all", "cpu=1500m"}));
    EXPECT_EQ(cgroup().read("cpu", "cpu.cfs_quota_us"), "150000");
    EXPECT_EQ(cgroup().read("cpuset", "cpuset.cpus"), "0");
    EXPECT_EQ(transaction.actual().cpuMillis, 1500u);
    EXPECT_EQ(transaction.actual(), transaction.previous());
}

TEST_F(ApplierV1, MemoryShrinkBelowRealUsageIsRefusedAndRestored)
{
    given({.memoryHigh = kUnlimited});
    auto holder = holdMemory(test::MemoryKind::Anonymous, 64 * kMi);

    const auto transaction = apply({.memoryMax = 16 * kMi},
                                   {.reclaimTimeout = 300ms, .reclaimPollInterval = 50ms});

    EXPECT_EQ(transaction.outcome(), ApplyOutcome::MemoryInUse);
    EXPECT_TRUE(transaction.message().starts_with("memory usage "));
    EXPECT_TRUE(transaction.message().ends_with(
        " stays above the requested memory.max 16Mi after 300ms of reclaim"))
        << transaction.message();
    // memory.high (the soft limit) throttles during the wait, then goes back.
    EXPECT_EQ(backend_.writes, (Writes{"memory.high=16Mi", "memory.high=max"}));
    EXPECT_EQ(now().memoryMax, kUnlimited);
    EXPECT_EQ(now().memoryHigh, kUnlimited);
    EXPECT_TRUE(holder.process().alive());
}

TEST_F(ApplierV1, MemoryShrinkAboveUsageApplies)
{
    given({.memoryHigh = 512 * kMi});
    auto holder = holdMemory(test::MemoryKind::Anonymous, 32 * kMi);

    const auto transaction = apply({.memoryMax = 256 * kMi});

    ASSERT_EQ(transaction.outcome(), ApplyOutcome::Applied) << transaction.message();
    EXPECT_EQ(backend_.writes,
              (Writes{"memory.high=256Mi", "memory.max=256Mi", "memory.high=512Mi"}));
    EXPECT_EQ(now().memoryMax, 256 * kMi);
    EXPECT_EQ(now().memoryHigh, 512 * kMi);
    EXPECT_TRUE(holder.process().alive());
}

TEST_F(ApplierV1, MemoryShrinkWithHighAskedKeepsTheAskedHigh)
{
    given({.memoryMax = 512 * kMi, .memoryHigh = 400 * kMi});
    const auto transaction = apply({.memoryMax = 256 * kMi, .memoryHigh = 300 * kMi});
    ASSERT_EQ(transaction.outcome(), ApplyOutcome::Applied) << transaction.message();
    EXPECT_EQ(backend_.writes, (Writes{"memory.high=300Mi", "memory.high=256Mi",
                                       "memory.max=256Mi", "memory.high=300Mi"}));
    EXPECT_EQ(now().memoryHigh, 300 * kMi);
}

// Raising memory.limit_in_bytes above memory.memsw.limit_in_bytes pulls the
// latter up with it; a rollback must put it back, or the workload keeps swap
// it was never given.
TEST_F(ApplierV1, ARollbackPutsMemoryPlusSwapBack)
{
    if (!std::filesystem::exists(cgroup().file("memory", "memory.memsw.limit_in_bytes")))
        GTEST_SKIP() << "no swap accounting (memory.memsw.*) on this kernel";
    given({.cpuMillis = 200});
    cgroup().write("memory", "memory.limit_in_bytes", std::to_string(64 * kMi));
    cgroup().write("memory", "memory.memsw.limit_in_bytes", std::to_string(96 * kMi));
    // v1 refuses a child more CPU than its parent has: the CPU raise, written
    // after the memory raise, fails.
    std::ofstream parentQuota(test::kCgroupRoot / "cpu" / cgroup_->parent().substr(1) /
                              "cpu.cfs_quota_us");
    parentQuota << "50000";
    parentQuota.close();
    ASSERT_TRUE(parentQuota) << "cannot limit the parent's CPU";

    const auto transaction = apply({.cpuMillis = 1000, .memoryMax = 128 * kMi});

    EXPECT_EQ(transaction.outcome(), ApplyOutcome::Failed);
    EXPECT_EQ(backend_.writes, (Writes{"memory.max=128Mi", "cpu=1", "cpu=200m", "memory.max=64Mi"}));
    EXPECT_EQ(cgroup().read("memory", "memory.limit_in_bytes"), std::to_string(64 * kMi));
    EXPECT_EQ(cgroup().read("memory", "memory.memsw.limit_in_bytes"), std::to_string(96 * kMi));
}

// v1 writes memory.limit_in_bytes only after reclaiming down to it, and
// refuses with EBUSY what it cannot reclaim: anonymous memory it may not
// swap. Force cannot overrule that, and nothing is changed. memory.swappiness
// 0 keeps the kernel from swapping for the cgroup's limit, so that this holds
// on machines with swap too.
TEST_F(ApplierV1, ForcedShrinkBelowAnonymousMemoryIsRefusedByTheKernel)
{
    cgroup().write("memory", "memory.swappiness", "0");
    auto holder = holdMemory(test::MemoryKind::Anonymous, 64 * kMi);

    const auto transaction = apply({.memoryMax = 16 * kMi, .cpuWeight = 50}, {.force = true});

    EXPECT_EQ(transaction.outcome(), ApplyOutcome::MemoryInUse);
    EXPECT_NE(transaction.message().find("memory.limit_in_bytes"), std::string::npos)
        << transaction.message();
    EXPECT_EQ(now().memoryMax, kUnlimited);
    EXPECT_EQ(now().cpuWeight, 100u);
    EXPECT_TRUE(holder.process().alive());
}

TEST_F(ApplierV1, ForcedShrinkReclaimsPageCache)
{
    resized::test::TempDirectory dir;
    auto holder = holdMemory(test::MemoryKind::PageCache, 64 * kMi, dir.path());
    ASSERT_GT(backend_.memoryUsage(child()), 48 * kMi);

    const auto transaction = apply({.memoryMax = 16 * kMi}, {.force = true});

    ASSERT_EQ(transaction.outcome(), ApplyOutcome::Applied) << transaction.message();
    EXPECT_EQ(backend_.writes, (Writes{"memory.max=16Mi"}));
    EXPECT_EQ(cgroup().read("memory", "memory.limit_in_bytes"), std::to_string(16 * kMi));
    EXPECT_LE(backend_.memoryUsage(child()), 16 * kMi);
    EXPECT_TRUE(holder.process().alive());
}

TEST_F(ApplierV1, UnknownCgroupFailsWithoutWriting)
{
    ApplyTransaction transaction(backend_, cgroup_->parent() + "/missing", {.cpuMillis = 500}, {});
    EXPECT_EQ(transaction.advance(), std::nullopt);
    EXPECT_EQ(transaction.outcome(), ApplyOutcome::Failed);
    EXPECT_NE(transaction.message().find("no cgroup at /sys/fs/cgroup/"), std::string::npos)
        << transaction.message();
    EXPECT_EQ(backend_.writes, Writes{});
}

}  // namespace
}  // namespace resized::cgroup
