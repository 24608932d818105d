#include "core/validation.h"

#include <gtest/gtest.h>

#include "core/states.h"

using namespace resized::core;

TEST(Validation, AcceptsTheContractsRangesAndNoLimit)
{
    Resources resources;
    resources.cpuMillis = kMaxCpuMillis;
    resources.memoryMax = kMinMemory;
    resources.memoryHigh = kUnlimited;
    resources.cpuWeight = kMaxCpuWeight;
    resources.allowedCpus = CpuSet{0, 1, 2, 3};
    EXPECT_EQ(outOfRange(resources), std::nullopt);
}

TEST(Validation, NamesTheKeyThatIsOutOfRange)
{
    auto errorFor = [](Resources resources) { return outOfRange(resources).value_or(""); };
    EXPECT_EQ(errorFor({.cpuMillis = 0}).rfind("CpuMillis 0 is outside", 0), 0u);
    EXPECT_EQ(errorFor({.memoryMax = kMinMemory - 1}).rfind("MemoryMax", 0), 0u);
    EXPECT_EQ(errorFor({.memoryHigh = kMaxMemory + 1}).rfind("MemoryHigh", 0), 0u);
    EXPECT_EQ(errorFor({.cpuWeight = 0}).rfind("CpuWeight", 0), 0u);
    EXPECT_EQ(errorFor({.cpuWeight = kUnlimited}).rfind("CpuWeight", 0), 0u);
}

TEST(Validation, APoolNameIsALabelValueAndAPathElement)
{
    for (const std::string& name : std::vector<std::string>{"batch", "a", "web-2", "tier_1.gold", std::string(63, 'x')})
        EXPECT_EQ(invalidPoolName(name), std::nullopt) << name;
    for (const std::string& name : std::vector<std::string>{"", std::string(64, 'x'), "-batch", ".hidden", "a/b", "a b", "caf\xc3\xa9"})
        EXPECT_NE(invalidPoolName(name), std::nullopt) << name;
}

TEST(States, NamesRoundTrip)
{
    for (auto state : {SyncState::Unknown, SyncState::Pending, SyncState::Applying, SyncState::Synchronized,
                       SyncState::DriftDetected, SyncState::Failed})
        EXPECT_EQ(parseSyncState(toString(state)), state);
    for (auto state : {UpdateState::Unknown, UpdateState::Pending, UpdateState::Running, UpdateState::Success,
                       UpdateState::Failed, UpdateState::Deferred, UpdateState::Infeasible})
        EXPECT_EQ(parseUpdateState(toString(state)), state);
    EXPECT_EQ(toString(SyncState::DriftDetected), "drift_detected");
    EXPECT_EQ(parseSyncState("bogus"), std::nullopt);
}

TEST(Resources, OverlayAndRestrict)
{
    const Resources base{.cpuMillis = 1000, .memoryMax = 1ull << 30};
    const Resources change{.memoryMax = 2ull << 30, .cpuWeight = 50};
    const Resources merged = base.overlaidWith(change);
    EXPECT_EQ(merged, (Resources{.cpuMillis = 1000, .memoryMax = 2ull << 30, .cpuWeight = 50}));
    EXPECT_EQ(merged.restrictedTo(change), change);
    EXPECT_TRUE(Resources{}.empty());
    EXPECT_EQ(describe(merged), "cpu=1 memory.max=2Gi cpu.weight=50");
}
