#include "dbus_codec/resource_dictionary.h"

#include <gtest/gtest.h>

#include "every_resource_key.h"

namespace resized::dbus_codec {
namespace {

// Every key, and "no limit" among them.
core::Resources everyKey()
{
    return test::everyResourceKey().overlaidWith({.memoryMax = core::kUnlimited});
}

std::string refusal(const Dictionary& dictionary)
{
    try {
        decodeResources(dictionary);
    } catch (const InvalidDictionary& error) {
        return error.what();
    }
    return "accepted";
}

TEST(ResourceDictionary, EncodesEveryKeyWithItsContractType)
{
    const Dictionary dictionary = encodeResources(everyKey());
    ASSERT_EQ(dictionary.size(), 6u);
    for (const char* key : {"CpuMillis", "MemoryMax", "MemoryHigh", "CpuWeight", "ExclusiveCpus"})
        EXPECT_EQ(dictionary.at(key).peekValueType(), "t") << key;
    EXPECT_EQ(dictionary.at("AllowedCpus").peekValueType(), "s");
    EXPECT_EQ(dictionary.at("MemoryMax").get<uint64_t>(), core::kUnlimited);
    EXPECT_EQ(decodeReportedResources(dictionary), everyKey());
    // A request cannot name ExclusiveCpus with the keys it decides.
    const auto request = everyKey().without({.exclusiveCpus = 0});
    EXPECT_EQ(decodeResources(encodeResources(request)), request);
}

TEST(ResourceDictionary, EncodesOnlyTheKeysNamed)
{
    const Dictionary dictionary = encodeResources({.allowedCpus = core::CpuSet{}});
    ASSERT_EQ(dictionary.size(), 1u);
    EXPECT_EQ(dictionary.at("AllowedCpus").get<std::string>(), "");
    EXPECT_TRUE(encodeResources({}).empty());
}

TEST(ResourceDictionary, DecodingARequestCanonicalisesTheCpuList)
{
    EXPECT_EQ(decodeResources({{"AllowedCpus", sdbus::Variant(std::string("3,0-1,2"))}}),
              (core::Resources{.allowedCpus = (core::CpuSet{0, 1, 2, 3})}));
}

TEST(ResourceDictionary, ARequestBreakingTheContractIsRefusedWithTheReason)
{
    EXPECT_EQ(refusal({{"CpuMilis", sdbus::Variant(uint64_t{1000})}}),
              "unknown resource key \"CpuMilis\" (known: CpuMillis, MemoryMax, MemoryHigh, CpuWeight, AllowedCpus, "
              "ExclusiveCpus)");
    EXPECT_EQ(refusal({{"CpuMillis", sdbus::Variant(uint32_t{1000})}}),
              "CpuMillis must be of D-Bus type 't', got 'u'");
    EXPECT_EQ(refusal({{"AllowedCpus", sdbus::Variant(uint64_t{1})}}),
              "AllowedCpus must be of D-Bus type 's', got 't'");
    EXPECT_EQ(refusal({{"CpuWeight", sdbus::Variant(uint64_t{0})}}), "CpuWeight 0 is outside 1..10000");
    EXPECT_EQ(refusal({{"AllowedCpus", sdbus::Variant(std::string("1-"))}}),
              "AllowedCpus \"1-\" is not a CPU list such as \"0-3,6\"");
    EXPECT_EQ(refusal({{"ExclusiveCpus", sdbus::Variant(uint64_t{2})}, {"CpuMillis", sdbus::Variant(uint64_t{500})}}),
              "ExclusiveCpus cannot be asked together with CpuMillis: an exclusive slice is its own CPUs "
              "(AllowedCpus) without a quota (CpuMillis)");
    EXPECT_EQ(refusal({{"ExclusiveCpus", sdbus::Variant(uint64_t{0})}, {"AllowedCpus", sdbus::Variant(std::string("1"))}}),
              "ExclusiveCpus cannot be asked together with AllowedCpus: an exclusive slice is its own CPUs "
              "(AllowedCpus) without a quota (CpuMillis)");
    EXPECT_EQ(refusal({{"ExclusiveCpus", sdbus::Variant(uint64_t{9000})}}),
              "ExclusiveCpus 9000 is outside 0..8192");
}

TEST(ResourceDictionary, AReportLeavesOutWhatThisBuildCannotRead)
{
    const Dictionary report{{"NumaNode", sdbus::Variant(uint64_t{2})},
                            {"MemoryMax", sdbus::Variant(std::string("512Mi"))},
                            {"CpuWeight", sdbus::Variant(uint64_t{7})}};
    EXPECT_EQ(decodeReportedResources(report), (core::Resources{.cpuWeight = 7}));
}

}  // namespace
}  // namespace resized::dbus_codec
