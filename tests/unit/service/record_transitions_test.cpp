#include "service/record_transitions.h"

#include <gtest/gtest.h>

// Each named step of a workload record's life: which states it sets, what
// message it leaves, which generation it moves.
namespace resized::service {
namespace {

using core::SyncState;
using core::UpdateState;

constexpr uint64_t kNow = 1'700'000'000'000'000;

// A record after a successful update at generation 3, with a message left
// over from before.
store::WorkloadRecord settled()
{
    store::WorkloadRecord record;
    record.name = "web";
    record.runState = core::RunState::Running;
    record.holdsAllocation = true;
    record.desired = {.cpuMillis = 1000};
    record.actuated = {.cpuMillis = 1000, .memoryMax = 512ull << 20};
    record.actual = {.cpuMillis = 1000, .memoryMax = 512ull << 20};
    record.allocated = {1000, 512ull << 20};
    record.syncState = SyncState::Synchronized;
    record.updateState = UpdateState::Success;
    record.message = "an older message";
    record.generation = 3;
    record.observedGeneration = 3;
    record.updatedAtUsec = 1;
    return record;
}

TEST(RecordTransitions, ApplyingStartsANewGeneration)
{
    auto record = settled();
    transition::applying(record, kNow);
    EXPECT_EQ(record.generation, 4u);
    EXPECT_EQ(record.observedGeneration, 3u);
    EXPECT_EQ(record.syncState, SyncState::Applying);
    EXPECT_EQ(record.updateState, UpdateState::Running);
    EXPECT_EQ(record.message, "");
    EXPECT_EQ(record.updatedAtUsec, kNow);
}

TEST(RecordTransitions, WaitingForCgroupStartsANewGenerationThatIsPending)
{
    auto record = settled();
    transition::waitingForCgroup(record, kNow);
    EXPECT_EQ(record.generation, 4u);
    EXPECT_EQ(record.observedGeneration, 3u);
    EXPECT_EQ(record.syncState, SyncState::Pending);
    EXPECT_EQ(record.updateState, UpdateState::Pending);
    EXPECT_EQ(record.message, "the workload is not running; the limits are applied when it starts");
    EXPECT_EQ(record.updatedAtUsec, kNow);
}

TEST(RecordTransitions, AppliedObservesTheGenerationAndKeepsWhatWasWritten)
{
    auto record = settled();
    transition::applying(record, 10);
    const core::Resources written{.cpuMillis = 1500, .allowedCpus = core::CpuSet{0}};
    const core::Resources actual{.cpuMillis = 1500, .memoryMax = 512ull << 20, .allowedCpus = core::CpuSet{0}};
    transition::applied(record, written, actual, kNow);
    EXPECT_EQ(record.actuated,
              (core::Resources{.cpuMillis = 1500, .memoryMax = 512ull << 20, .allowedCpus = core::CpuSet{0}}));
    EXPECT_EQ(record.actual, actual);
    EXPECT_EQ(record.syncState, SyncState::Synchronized);
    EXPECT_EQ(record.updateState, UpdateState::Success);
    EXPECT_EQ(record.message, "");
    EXPECT_EQ(record.generation, 4u);
    EXPECT_EQ(record.observedGeneration, 4u);
    EXPECT_EQ(record.updatedAtUsec, kNow);
}

TEST(RecordTransitions, ApplyFailedPutsTheDesiredStateBack)
{
    auto record = settled();
    const core::Resources previousDesired = record.desired;
    record.desired = {.cpuMillis = 3000};
    transition::applying(record, 10);
    // Restored: the cgroup holds what was last written.
    transition::applyFailed(record, previousDesired, record.actuated, "cpu.cfs_quota_us: Invalid argument", kNow);
    EXPECT_EQ(record.desired, previousDesired);
    EXPECT_EQ(record.syncState, SyncState::Synchronized);
    EXPECT_EQ(record.updateState, UpdateState::Failed);
    EXPECT_EQ(record.message, "cpu.cfs_quota_us: Invalid argument");
    EXPECT_EQ(record.observedGeneration, record.generation);
    EXPECT_EQ(record.updatedAtUsec, kNow);
}

TEST(RecordTransitions, ApplyFailedWithLimitsNotRestoredIsAFailedSync)
{
    auto record = settled();
    const core::Resources leftBehind{.cpuMillis = 2000, .memoryMax = 512ull << 20};
    transition::applyFailed(record, record.desired, leftBehind, "restore failed", kNow);
    EXPECT_EQ(record.actual, leftBehind);
    EXPECT_EQ(record.syncState, SyncState::Failed);
    EXPECT_EQ(record.updateState, UpdateState::Failed);
}

TEST(RecordTransitions, DeferredWaitsWithoutANewGeneration)
{
    auto record = settled();
    transition::deferred(record, "asked 500m more CPU, 0 available on this node", kNow);
    EXPECT_EQ(record.updateState, UpdateState::Deferred);
    EXPECT_EQ(record.syncState, SyncState::Synchronized);
    EXPECT_EQ(record.message, "waiting for capacity: asked 500m more CPU, 0 available on this node");
    EXPECT_EQ(record.generation, 3u);
    EXPECT_EQ(record.observedGeneration, 3u);
    EXPECT_EQ(record.updatedAtUsec, kNow);
    EXPECT_EQ(record.desired, settled().desired);
}

TEST(RecordTransitions, InfeasibleKeepsTheReasonAndTheLimits)
{
    auto record = settled();
    transition::infeasible(record, "asked 9 CPU, more than this node's allocatable 4", kNow);
    EXPECT_EQ(record.updateState, UpdateState::Infeasible);
    EXPECT_EQ(record.syncState, SyncState::Synchronized);
    EXPECT_EQ(record.message, "asked 9 CPU, more than this node's allocatable 4");
    EXPECT_EQ(record.generation, 3u);
    EXPECT_EQ(record.desired, settled().desired);
    EXPECT_EQ(record.allocated, settled().allocated);
    EXPECT_EQ(record.updatedAtUsec, kNow);
}

TEST(RecordTransitions, SynchronizedAndDriftDetectedOnlyRecordTheReading)
{
    auto record = settled();
    const core::Resources drifted{.cpuMillis = 700, .memoryMax = 512ull << 20};
    transition::driftDetected(record, drifted);
    EXPECT_EQ(record.syncState, SyncState::DriftDetected);
    EXPECT_EQ(record.actual, drifted);
    EXPECT_EQ(record.updateState, UpdateState::Success);
    EXPECT_EQ(record.message, "an older message");
    EXPECT_EQ(record.updatedAtUsec, 1u);

    transition::synchronized(record, settled().actual);
    EXPECT_EQ(record.syncState, SyncState::Synchronized);
    EXPECT_EQ(record.actual, settled().actual);
    EXPECT_EQ(record.generation, 3u);
    EXPECT_EQ(record.updatedAtUsec, 1u);
}

TEST(RecordTransitions, AllocationReleasedKeepsTheDesiredStateForALaterContainer)
{
    auto record = settled();
    record.runState = core::RunState::Removed;
    transition::allocationReleased(record, kNow);
    EXPECT_FALSE(record.holdsAllocation);
    EXPECT_EQ(record.allocated, core::Amounts{});
    EXPECT_EQ(record.desired, settled().desired);
    EXPECT_EQ(record.syncState, SyncState::Pending);
    EXPECT_EQ(record.updateState, UpdateState::Pending);
    EXPECT_EQ(record.message, "the container was removed and its allocation released; a container of this "
                              "name is admitted again when it appears");
    EXPECT_EQ(record.generation, 3u);
    EXPECT_EQ(record.updatedAtUsec, kNow);
}

TEST(RecordTransitions, MovingOutReleasesTheAllocationForAnAdmissionInTheNewPool)
{
    auto record = settled();
    auto before = record;
    before.poolLabel = "web";
    record.poolLabel = "batch";
    transition::movedOut(record, before, kNow);
    EXPECT_FALSE(record.holdsAllocation);
    EXPECT_EQ(record.allocated, core::Amounts{});
    EXPECT_EQ(record.desired, settled().desired);
    EXPECT_EQ(record.updateState, UpdateState::Pending);
    EXPECT_EQ(record.message, "its container came back in no pod and pool batch, not in no pod and pool web; it is "
                              "admitted there again");
    EXPECT_EQ(record.updatedAtUsec, kNow);
}

TEST(RecordTransitions, MovingOutOfAPodReleasesTheAllocationForAnAdmissionOutsideIt)
{
    auto record = settled();
    auto before = record;
    before.pod = "shop";
    transition::movedOut(record, before, kNow);
    EXPECT_FALSE(record.holdsAllocation);
    EXPECT_EQ(record.updateState, UpdateState::Pending);
    EXPECT_EQ(record.message, "its container came back in no pod and no pool, not in pod shop and no pool; it is "
                              "admitted there again");
}

}  // namespace
}  // namespace resized::service
