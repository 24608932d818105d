#include "core/cpuset.h"

#include <gtest/gtest.h>

namespace resized::core {
namespace {

TEST(ParseCpuSet, ReadsKernelListSyntax)
{
    EXPECT_EQ(parseCpuSet("0-3,6"), (CpuSet{0, 1, 2, 3, 6}));
    EXPECT_EQ(parseCpuSet("5"), (CpuSet{5}));
    EXPECT_EQ(parseCpuSet("2,0,1"), (CpuSet{0, 1, 2}));
    EXPECT_EQ(parseCpuSet("1-1"), (CpuSet{1}));
    EXPECT_EQ(parseCpuSet("0-2,1-3"), (CpuSet{0, 1, 2, 3}));
}

TEST(ParseCpuSet, TrimsSpaceAtTheEndsOnly)
{
    EXPECT_EQ(parseCpuSet("0-1\n"), (CpuSet{0, 1}));
    EXPECT_EQ(parseCpuSet(" \t3 \n"), (CpuSet{3}));
    EXPECT_EQ(parseCpuSet("0, 1"), std::nullopt);
    EXPECT_EQ(parseCpuSet("0 -1"), std::nullopt);
}

TEST(ParseCpuSet, EmptyIsTheEmptySet)
{
    EXPECT_EQ(parseCpuSet(""), CpuSet{});
    EXPECT_EQ(parseCpuSet("\n"), CpuSet{});
}

TEST(ParseCpuSet, RefusesMalformedLists)
{
    for (const char* text : {"3-1", "a", "1,,2", "-1", "1-", ",1", "1,", "1-2-3", "+1", "0x1",
                             "1.5", "8192", "0-8192", "99999999999999999999", "4294967297"})
        EXPECT_EQ(parseCpuSet(text), std::nullopt) << text;
}

TEST(ParseCpuSet, AcceptsTheHighestCpu)
{
    EXPECT_EQ(parseCpuSet("8191"), (CpuSet{kMaxCpuIndex}));
    EXPECT_EQ(parseCpuSet("0-8191")->size(), kMaxCpuIndex + 1);
}

TEST(FormatCpuSet, MergesRangesInOrder)
{
    EXPECT_EQ(formatCpuSet({}), "");
    EXPECT_EQ(formatCpuSet({4}), "4");
    EXPECT_EQ(formatCpuSet({0, 1}), "0-1");
    EXPECT_EQ(formatCpuSet({6, 0, 2, 1, 3}), "0-3,6");
    EXPECT_EQ(formatCpuSet({1, 3, 5, 6, 7, 9}), "1,3,5-7,9");
}

TEST(FormatCpuSet, RoundTripsThroughParse)
{
    for (const char* text : {"0", "0-3,6", "1,3,5-7,9", "0-8191"})
        EXPECT_EQ(formatCpuSet(*parseCpuSet(text)), text);
}

TEST(IsSubset, ComparesSets)
{
    EXPECT_TRUE(isSubset({}, {}));
    EXPECT_TRUE(isSubset({}, {0}));
    EXPECT_TRUE(isSubset({1}, {0, 1}));
    EXPECT_TRUE(isSubset({0, 1}, {0, 1}));
    EXPECT_FALSE(isSubset({1}, {0}));
    EXPECT_FALSE(isSubset({0, 2}, {0, 1}));
    EXPECT_FALSE(isSubset({0}, {}));
}

}  // namespace
}  // namespace resized::core
