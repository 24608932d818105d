#include "service/executor.h"

#include <gtest/gtest.h>

#include <condition_variable>
#include <mutex>
#include <thread>

#include "cgroup/cgroup_files.h"
#include "cgroup/cgroupfs_v1.h"
#include "cgroup/usage_files.h"
#include "cgroup_tree.h"
#include "run_loop.h"
#include "v1_test_cgroup.h"

// A change over several cgroups, all or nothing, on the daemon's sd-event
// loop: over a cgroup v1 file tree, through a backend that waits for
// another process as systemd's does, and over real v1 cgroups where the
// kernel itself refuses a write.
namespace resized::service {
namespace {

using namespace std::chrono_literals;
using core::kUnlimited;

constexpr uint64_t kMi = 1ull << 20;
constexpr uint64_t kGi = 1ull << 30;
const std::string kFirst = "/libpod_parent/first";
const std::string kSecond = "/libpod_parent/second";

class ExecutionTest : public ::testing::Test {
protected:
    ExecutionTest()
    {
        tree_.add(kFirst);
        tree_.add(kSecond, kGi);
    }

    // Starts an execution of `changes`; done_ counts its completions.
    Execution& start(std::vector<CgroupChange> changes, cgroup::ApplyOptions options = {},
                     WorkerThread* peerCalls = nullptr)
    {
        options.reclaimPollInterval = 10ms;
        execution_ = std::make_unique<Execution>(
            loop_, std::move(changes), options, [this](Execution&) { ++done_; }, peerCalls);
        execution_->start();
        return *execution_;
    }

    CgroupChange change(const std::string& cgroup, core::Resources target)
    {
        return {.backend = &backend_, .cgroup = cgroup, .target = std::move(target)};
    }

    bool finished() { return test::runLoopUntil(loop_, [this] { return done_ > 0; }); }

    test::CgroupTree tree_;
    cgroup::CgroupfsV1Backend backend_{tree_.root()};
    EventLoop loop_;
    std::unique_ptr<Execution> execution_;
    int done_ = 0;
};

TEST_F(ExecutionTest, EveryCgroupGetsItsChange)
{
    auto& execution = start({change(kFirst, {.cpuMillis = 500}),
                             change(kSecond, {.memoryMax = 2 * kGi, .cpuWeight = 200})});

    // Nothing waited: done was called from start() itself, once.
    EXPECT_EQ(done_, 1);
    EXPECT_EQ(execution.outcome(), cgroup::ApplyOutcome::Applied);
    EXPECT_EQ(execution.message(), "");
    EXPECT_EQ(tree_.read("cpu", kFirst, "cpu.cfs_quota_us"), "50000");
    EXPECT_EQ(tree_.read("memory", kSecond, "memory.limit_in_bytes"), std::to_string(2 * kGi));
    EXPECT_EQ(tree_.read("cpu", kSecond, "cpu.shares"), "2048");
    EXPECT_EQ(execution.actual(0).cpuMillis, 500u);
    EXPECT_EQ(execution.actual(1).memoryMax, 2 * kGi);
    EXPECT_EQ(execution.actual(1).cpuWeight, 200u);
    // The second cgroup's CPU was not asked for and is left alone.
    EXPECT_EQ(tree_.read("cpu", kSecond, "cpu.cfs_quota_us"), "-1");
}

TEST_F(ExecutionTest, ASecondCgroupThatFailsRestoresTheFirst)
{
    tree_.write("cpu", kFirst, "cpu.cfs_quota_us", "30000");
    tree_.write("memory", kFirst, "memory.limit_in_bytes", std::to_string(128 * kMi));
    // The second container stopped between admission and the write.
    tree_.remove(kSecond);

    auto& execution = start({change(kFirst, {.cpuMillis = 800, .memoryMax = 512 * kMi}),
                             change(kSecond, {.cpuMillis = 200})});

    EXPECT_EQ(done_, 1);
    EXPECT_EQ(execution.outcome(), cgroup::ApplyOutcome::Failed);
    EXPECT_NE(execution.message().find(kSecond), std::string::npos) << execution.message();
    EXPECT_EQ(tree_.read("cpu", kFirst, "cpu.cfs_quota_us"), "30000");
    EXPECT_EQ(tree_.read("memory", kFirst, "memory.limit_in_bytes"), std::to_string(128 * kMi));
    EXPECT_EQ(execution.actual(0).cpuMillis, 300u);
    EXPECT_EQ(execution.actual(0).memoryMax, 128 * kMi);
}

TEST_F(ExecutionTest, AStepThatWaitsForReclaimContinuesFromTheLoop)
{
    tree_.setUsage(kSecond, 600 * kMi);
    cgroup::ApplyOptions options;
    options.reclaimTimeout = 10s;
    auto& execution = start({change(kFirst, {.cpuMillis = 500}), change(kSecond, {.memoryMax = 512 * kMi})},
                            options);

    // The first cgroup is done; the second throttles and waits.
    ASSERT_EQ(done_, 0);
    EXPECT_EQ(execution.outcome(), cgroup::ApplyOutcome::InProgress);
    EXPECT_EQ(tree_.read("cpu", kFirst, "cpu.cfs_quota_us"), "50000");
    EXPECT_EQ(tree_.read("memory", kSecond, "memory.soft_limit_in_bytes"), std::to_string(512 * kMi));
    EXPECT_EQ(tree_.read("memory", kSecond, "memory.limit_in_bytes"), std::to_string(kGi));

    // The workload gives memory back while the loop runs.
    const auto reclaimed = loop_.after(30ms, [this] { tree_.setUsage(kSecond, 100 * kMi); });
    ASSERT_TRUE(finished());
    EXPECT_EQ(done_, 1);
    EXPECT_EQ(execution.outcome(), cgroup::ApplyOutcome::Applied);
    EXPECT_EQ(tree_.read("memory", kSecond, "memory.limit_in_bytes"), std::to_string(512 * kMi));
    // The throttle was only for the way down.
    EXPECT_EQ(tree_.read("memory", kSecond, "memory.soft_limit_in_bytes"), std::to_string(kGi));
    EXPECT_EQ(tree_.read("cpu", kFirst, "cpu.cfs_quota_us"), "50000");
}

TEST_F(ExecutionTest, AWaitThatEndsInMemoryInUseRestoresEveryCgroup)
{
    tree_.setUsage(kSecond, 600 * kMi);
    cgroup::ApplyOptions options;
    options.reclaimTimeout = 50ms;
    auto& execution = start({change(kFirst, {.cpuMillis = 500, .cpuWeight = 300}),
                             change(kSecond, {.memoryMax = 512 * kMi})},
                            options);
    ASSERT_EQ(done_, 0);

    ASSERT_TRUE(finished());
    EXPECT_EQ(done_, 1);
    EXPECT_EQ(execution.outcome(), cgroup::ApplyOutcome::MemoryInUse);
    EXPECT_NE(execution.message().find("stays above the requested memory.max 512Mi"), std::string::npos)
        << execution.message();
    EXPECT_EQ(tree_.read("cpu", kFirst, "cpu.cfs_quota_us"), "-1");
    EXPECT_EQ(tree_.read("cpu", kFirst, "cpu.shares"), "1024");
    EXPECT_EQ(tree_.read("memory", kSecond, "memory.soft_limit_in_bytes"), std::to_string(kGi));
    EXPECT_EQ(tree_.read("memory", kSecond, "memory.limit_in_bytes"), std::to_string(kGi));
    EXPECT_EQ(execution.actual(0).cpuMillis, kUnlimited);
    EXPECT_EQ(execution.actual(0).cpuWeight, 100u);
}

// The v1 file backend behind a call to another process, as systemd's
// SetUnitProperties is: each write waits until the test lets one through,
// and says from which thread it came.
class PeerBackend final : public cgroup::LimitsBackend {
public:
    explicit PeerBackend(cgroup::LimitsBackend& files) : files_(files) {}

    std::string_view driverName() const override { return "peer"; }
    bool waitsForPeer() const override { return true; }
    bool exists(const std::string& cgroup) const override { return files_.exists(cgroup); }
    core::Resources read(const std::string& cgroup) const override { return files_.read(cgroup); }
    void write(const std::string& cgroup, const core::Resources& limits) override
    {
        {
            std::unique_lock lock(mutex_);
            answered_.wait(lock, [this] { return passes_ > 0; });
            --passes_;
            writers_.push_back(std::this_thread::get_id());
        }
        files_.write(cgroup, limits);
    }
    uint64_t memoryUsage(const std::string& cgroup) const override { return files_.memoryUsage(cgroup); }
    cgroup::UsageFiles openUsage(const std::string& cgroup) const override { return files_.openUsage(cgroup); }
    void reclaim(const std::string& cgroup, uint64_t bytes) override { files_.reclaim(cgroup, bytes); }
    core::CpuSet parentCpus(const std::string& cgroup) const override { return files_.parentCpus(cgroup); }
    core::CpuSet parentMemoryNodes(const std::string& cgroup) const override
    {
        return files_.parentMemoryNodes(cgroup);
    }
    std::vector<std::string> childCgroups(const std::string& cgroup) const override
    {
        return files_.childCgroups(cgroup);
    }

    void answer(int writes)
    {
        const std::lock_guard lock(mutex_);
        passes_ += writes;
        answered_.notify_all();
    }
    std::vector<std::thread::id> writers()
    {
        const std::lock_guard lock(mutex_);
        return writers_;
    }

private:
    cgroup::LimitsBackend& files_;
    std::mutex mutex_;
    std::condition_variable answered_;
    int passes_ = 0;
    std::vector<std::thread::id> writers_;
};

class PeerExecutionTest : public ExecutionTest {
protected:
    CgroupChange peerChange(const std::string& cgroup, core::Resources target)
    {
        return {.backend = &peer_, .cgroup = cgroup, .target = std::move(target)};
    }

    PeerBackend peer_{backend_};
    WorkerThread peerCalls_{loop_};
};

TEST_F(PeerExecutionTest, APeersWritesWaitOffTheLoop)
{
    auto& execution = start({peerChange(kFirst, {.cpuMillis = 500})}, {}, &peerCalls_);
    bool timerFired = false;
    const auto timer = loop_.after(1ms, [&] { timerFired = true; });
    ASSERT_TRUE(test::runLoopUntil(loop_, [&] { return timerFired; }));
    EXPECT_EQ(done_, 0) << "done before the peer answered";

    peer_.answer(1);
    ASSERT_TRUE(finished());
    EXPECT_EQ(execution.outcome(), cgroup::ApplyOutcome::Applied);
    EXPECT_EQ(tree_.read("cpu", kFirst, "cpu.cfs_quota_us"), "50000");
    ASSERT_EQ(peer_.writers().size(), 1u);
    EXPECT_NE(peer_.writers().front(), std::this_thread::get_id());
}

TEST_F(PeerExecutionTest, AFailureAfterAPeersChangeRestoresItOffTheLoop)
{
    tree_.write("cpu", kFirst, "cpu.cfs_quota_us", "30000");
    tree_.remove(kSecond);
    peer_.answer(2);

    auto& execution = start({peerChange(kFirst, {.cpuMillis = 800}), change(kSecond, {.cpuMillis = 200})}, {},
                            &peerCalls_);

    ASSERT_TRUE(finished());
    EXPECT_EQ(execution.outcome(), cgroup::ApplyOutcome::Failed);
    EXPECT_EQ(tree_.read("cpu", kFirst, "cpu.cfs_quota_us"), "30000");
    EXPECT_EQ(execution.actual(0).cpuMillis, 300u);
    const auto writers = peer_.writers();
    ASSERT_EQ(writers.size(), 2u) << "the change and its restore";
    EXPECT_NE(writers.back(), std::this_thread::get_id());
}

TEST_F(PeerExecutionTest, AnExecutionGoneBeforeThePeerAnswersIsNotCalledBack)
{
    start({peerChange(kFirst, {.cpuMillis = 500})}, {}, &peerCalls_);
    execution_.reset();
    peer_.answer(1);

    bool timerFired = false;
    const auto timer = loop_.after(50ms, [&] { timerFired = true; });
    ASSERT_TRUE(test::runLoopUntil(loop_, [&] { return timerFired; }));
    EXPECT_EQ(done_, 0);
    EXPECT_EQ(peer_.writers().size(), 1u);
}

// The kernel's refusal, not a missing file: a cpuset outside the parent's.
TEST(ExecutionOnRealCgroups, AKernelRefusalInTheSecondCgroupRestoresTheFirst)
{
    if (const auto reason = cgroup::test::missingCgroupV1(); !reason.empty())
        GTEST_SKIP() << reason;
    const auto nodeCpus = core::parseCpuSet(cgroup::readFile(cgroup::test::kCgroupRoot / "cpuset" / "cpuset.cpus"));
    if (!nodeCpus || nodeCpus->size() < 2)
        GTEST_SKIP() << "needs two CPUs";
    const cgroup::test::V1TestCgroup first;
    const cgroup::test::V1TestCgroup second(std::to_string(*nodeCpus->begin()));
    cgroup::CgroupfsV1Backend backend(cgroup::test::kCgroupRoot);
    EventLoop loop;

    const core::Resources everyCpu{.allowedCpus = *nodeCpus};
    int done = 0;
    Execution execution(loop,
                        {{.backend = &backend, .cgroup = first.child(), .target = {.cpuMillis = 500}},
                         {.backend = &backend, .cgroup = second.child(), .target = everyCpu}},
                        {}, [&](Execution&) { ++done; });
    execution.start();

    ASSERT_EQ(done, 1);
    EXPECT_EQ(execution.outcome(), cgroup::ApplyOutcome::Failed);
    EXPECT_NE(execution.message().find(second.child() + "/cpuset.cpus"), std::string::npos) << execution.message();
    EXPECT_EQ(first.read("cpu", "cpu.cfs_quota_us"), "-1");
    EXPECT_EQ(execution.actual(0).cpuMillis, kUnlimited);
    EXPECT_EQ(second.read("cpuset", "cpuset.cpus"), std::to_string(*nodeCpus->begin()));
}

}  // namespace
}  // namespace resized::service
