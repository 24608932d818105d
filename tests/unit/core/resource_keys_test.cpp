#include "core/resource_keys.h"

#include <algorithm>
#include <set>

#include <gtest/gtest.h>

#include "every_resource_key.h"

namespace resized::core {
namespace {

using test::everyResourceKey;

TEST(ResourceKeys, ReachEveryMemberOfResources)
{
    Resources resources = everyResourceKey();
    forEachResourceKey([&](const auto& key) { key.of(resources).reset(); });
    EXPECT_EQ(resources, Resources{});
}

TEST(ResourceKeys, HaveDistinctNamesInTheContractsOrder)
{
    EXPECT_EQ(allResourceKeyNames(), "CpuMillis, MemoryMax, MemoryHigh, CpuWeight, AllowedCpus, ExclusiveCpus");
    std::set<ResourceKey> keys(kAllResourceKeys.begin(), kAllResourceKeys.end());
    EXPECT_EQ(keys.size(), kAllResourceKeys.size());
    EXPECT_EQ(nameOf(ResourceKey::MemoryHigh), "MemoryHigh");
}

TEST(ResourceKeys, OnlyKeepsOneKey)
{
    EXPECT_EQ(only(everyResourceKey(), ResourceKey::AllowedCpus), (Resources{.allowedCpus = (core::CpuSet{0, 1})}));
    EXPECT_EQ(only(everyResourceKey(), ResourceKey::MemoryMax), (Resources{.memoryMax = 512ull << 20}));
    EXPECT_EQ(only(Resources{.cpuWeight = 5}, ResourceKey::CpuMillis), Resources{});
    EXPECT_TRUE(names(everyResourceKey(), ResourceKey::CpuWeight));
    EXPECT_FALSE(names(Resources{.cpuWeight = 5}, ResourceKey::AllowedCpus));
}

TEST(ResourceKeys, OnlyThoseInACgroupHaveAPlaceInIt)
{
    EXPECT_EQ(kCgroupResourceKeys.size() + 1, kAllResourceKeys.size());
    EXPECT_EQ(std::count(kCgroupResourceKeys.begin(), kCgroupResourceKeys.end(), ResourceKey::ExclusiveCpus), 0);
}

TEST(Resources, WithoutAndDescribeGoOverEveryKey)
{
    EXPECT_EQ(everyResourceKey().without(Resources{.memoryMax = 0, .allowedCpus = core::CpuSet{}}),
              (Resources{.cpuMillis = 1500, .memoryHigh = 384ull << 20, .cpuWeight = 100, .exclusiveCpus = 2}));
    EXPECT_EQ(describe(everyResourceKey()),
              "cpu=1500m memory.max=512Mi memory.high=384Mi cpu.weight=100 cpus=0-1 exclusive-cpus=2");
    EXPECT_EQ(describe(Resources{.allowedCpus = core::CpuSet{}}), "cpus=all");
    EXPECT_EQ(describe(Resources{}), "nothing");
}

}  // namespace
}  // namespace resized::core
