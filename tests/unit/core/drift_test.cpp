#include "core/drift.h"

#include <gtest/gtest.h>

#include "core/resource_keys.h"
#include "every_resource_key.h"

namespace resized::core {
namespace {

using Keys = std::vector<std::string>;
using test::everyResourceKey;

TEST(DriftedKeys, NoneWhenEqual)
{
    EXPECT_EQ(driftedKeys(everyResourceKey(), everyResourceKey()), Keys{});
    EXPECT_TRUE(matches(everyResourceKey(), everyResourceKey()));
}

TEST(DriftedKeys, NamesEveryKeyThatDiffers)
{
    const Resources actual{.cpuMillis = 2000,
                           .memoryMax = 1ull << 30,
                           .memoryHigh = 1ull << 30,
                           .cpuWeight = 200,
                           .allowedCpus = core::CpuSet{1}};
    EXPECT_EQ(driftedKeys(everyResourceKey(), actual),
              (Keys{"CpuMillis", "MemoryMax", "MemoryHigh", "CpuWeight", "AllowedCpus"}));
    EXPECT_FALSE(matches(everyResourceKey(), actual));
}

TEST(DriftedKeys, OnlyKeysThatExpectedNames)
{
    EXPECT_EQ(driftedKeys({.cpuMillis = 1500}, {.cpuMillis = 1500, .memoryMax = 1}), Keys{});
    EXPECT_EQ(driftedKeys({}, everyResourceKey()), Keys{});
}

TEST(DriftedKeys, AKeyMissingFromActualDrifted)
{
    EXPECT_EQ(driftedKeys(everyResourceKey(), {}),
              (Keys{"CpuMillis", "MemoryMax", "MemoryHigh", "CpuWeight", "AllowedCpus"}));
}

TEST(DriftedKeys, ToleratesRounding)
{
    EXPECT_EQ(driftedKeys({.cpuMillis = 1500}, {.cpuMillis = 1510}), Keys{});
    EXPECT_EQ(driftedKeys({.cpuMillis = 1500}, {.cpuMillis = 1490}), Keys{});
    EXPECT_EQ(driftedKeys({.cpuMillis = 1500}, {.cpuMillis = 1511}), Keys{"CpuMillis"});
    EXPECT_EQ(driftedKeys({.memoryMax = 100'000'000}, {.memoryMax = 100'000'000 - kMemoryTolerance}),
              Keys{});
    EXPECT_EQ(driftedKeys({.memoryHigh = 100'000'000},
                          {.memoryHigh = 100'000'000 + kMemoryTolerance + 1}),
              Keys{"MemoryHigh"});
    EXPECT_EQ(driftedKeys({.cpuWeight = 7}, {.cpuWeight = 6}), Keys{});
    EXPECT_EQ(driftedKeys({.cpuWeight = 7}, {.cpuWeight = 9}), Keys{"CpuWeight"});
}

TEST(DriftedKeys, UnlimitedMatchesOnlyUnlimited)
{
    EXPECT_EQ(driftedKeys({.memoryMax = kUnlimited}, {.memoryMax = kUnlimited}), Keys{});
    EXPECT_EQ(driftedKeys({.memoryMax = kUnlimited}, {.memoryMax = kUnlimited - 1}),
              Keys{"MemoryMax"});
    EXPECT_EQ(driftedKeys({.memoryMax = kUnlimited - 1}, {.memoryMax = kUnlimited}),
              Keys{"MemoryMax"});
    EXPECT_EQ(driftedKeys({.cpuMillis = kUnlimited}, {.cpuMillis = kMaxCpuMillis}),
              Keys{"CpuMillis"});
}

TEST(DriftedKeys, ComparesCpusAsSets)
{
    EXPECT_EQ(driftedKeys({.allowedCpus = (core::CpuSet{0, 1, 2})}, {.allowedCpus = (core::CpuSet{0, 1, 2})}), Keys{});
    EXPECT_EQ(driftedKeys({.allowedCpus = (core::CpuSet{0, 1, 2})}, {.allowedCpus = (core::CpuSet{0, 1, 2, 3})}),
              Keys{"AllowedCpus"});
}

TEST(DriftedKeys, AllCpusMatchesOnlyAllCpus)
{
    EXPECT_EQ(driftedKeys({.allowedCpus = core::CpuSet{}}, {.allowedCpus = core::CpuSet{}}), Keys{});
    EXPECT_EQ(driftedKeys({.allowedCpus = core::CpuSet{}}, {.allowedCpus = (core::CpuSet{0, 1})}), Keys{"AllowedCpus"});
    EXPECT_EQ(driftedKeys({.allowedCpus = (core::CpuSet{0, 1})}, {.allowedCpus = core::CpuSet{}}), Keys{"AllowedCpus"});
}

}  // namespace
}  // namespace resized::core
