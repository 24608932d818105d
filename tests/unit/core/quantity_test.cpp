#include "core/quantity.h"

#include <gtest/gtest.h>

#include "core/resources.h"

using namespace resized::core;

TEST(Quantity, ParsesCpuAsPeopleWriteIt)
{
    EXPECT_EQ(parseCpuMillis("1.5"), 1500u);
    EXPECT_EQ(parseCpuMillis("250m"), 250u);
    EXPECT_EQ(parseCpuMillis("2"), 2000u);
    EXPECT_EQ(parseCpuMillis(".5"), 500u);
    EXPECT_EQ(parseCpuMillis("max"), kUnlimited);
}

TEST(Quantity, RefusesMalformedCpu)
{
    for (const char* text : {"", "m", "1.5m", "0.0005", "-1", "1,5", "1.2.3", "abc", "99999999999999999999"})
        EXPECT_FALSE(parseCpuMillis(text)) << text;
}

TEST(Quantity, ParsesBytesWithBinaryAndDecimalSuffixes)
{
    EXPECT_EQ(parseBytes("512Mi"), 512ull << 20);
    EXPECT_EQ(parseBytes("2G"), 2'000'000'000ull);
    EXPECT_EQ(parseBytes("1.5Gi"), 3ull << 29);
    EXPECT_EQ(parseBytes("4096"), 4096u);
    EXPECT_EQ(parseBytes("infinity"), kUnlimited);
}

TEST(Quantity, RefusesMalformedOrOverflowingBytes)
{
    for (const char* text : {"", "Mi", "1.3", "12Q", "-5Mi", "16Ei", "1 Mi"})
        EXPECT_FALSE(parseBytes(text)) << text;
}

TEST(Quantity, FormatsRoundTrip)
{
    EXPECT_EQ(formatCpuMillis(1500), "1500m");
    EXPECT_EQ(formatCpuMillis(2000), "2");
    EXPECT_EQ(formatCpuMillis(kUnlimited), "max");
    EXPECT_EQ(formatBytes(512ull << 20), "512Mi");
    EXPECT_EQ(formatBytes(1000), "1000");
    EXPECT_EQ(formatBytes(kUnlimited), "max");
    for (uint64_t bytes : {4096ull, 3ull << 29, 123456789ull})
        EXPECT_EQ(parseBytes(formatBytes(bytes)), bytes);
    for (uint64_t millis : {1ull, 999ull, 1000ull, 12345ull})
        EXPECT_EQ(parseCpuMillis(formatCpuMillis(millis)), millis);
}
