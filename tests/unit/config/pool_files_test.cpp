#include "pool_files.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "config.h"
#include "temp_directory.h"

// Pools declared in files: what a file says, and how a bad one is refused.
namespace resized {
namespace {

class PoolFilesTest : public ::testing::Test {
protected:
    std::filesystem::path poolFile(const std::string& name) const { return directory_.path() / (name + ".conf"); }
    void write(const std::string& name, const std::string& text) const { test::writeText(poolFile(name), text); }

    // The ConfigError's message, or "" when the folder loads.
    std::string errorOfLoading() const
    {
        try {
            loadPoolFiles(directory_.path());
        } catch (const ConfigError& error) {
            return error.what();
        }
        return "";
    }

    test::TempDirectory directory_;
};

TEST_F(PoolFilesTest, EachFileDeclaresThePoolItIsNamedAfter)
{
    write("batch", "[Pool]\nCPU=1.5\nMemory=8Gi\n"
                   "[Budget shrinks]\nValue=25%\nPeriodSec=10min\nReasons=manual autoscale\n"
                   "[Budget office-hours]\nValue=0\nSchedule=0 9 * * mon-fri\nDurationSec=8h\nTimeZone=Europe/Berlin\n");
    write("web", "# no caps, no budgets\n[Pool]\n");
    test::writeText(directory_.path() / "README", "not a pool");

    const auto pools = loadPoolFiles(directory_.path());

    ASSERT_EQ(pools.size(), 2U);
    const store::PoolRecord& batch = pools[0];
    EXPECT_EQ(batch.name, "batch");
    EXPECT_EQ(batch.declaredIn, poolFile("batch").string());
    EXPECT_EQ(batch.cap, (core::Amounts{1500, 8ULL << 30}));
    ASSERT_EQ(batch.budgets.size(), 2U);
    EXPECT_EQ(batch.budgets[0].value, 25U);
    EXPECT_TRUE(batch.budgets[0].percent);
    EXPECT_EQ(batch.budgets[0].periodUsec, 600'000'000U);
    EXPECT_EQ(batch.budgets[0].reasons,
              (std::set<core::DisruptionReason>{core::DisruptionReason::Manual, core::DisruptionReason::Autoscale}));
    EXPECT_FALSE(batch.budgets[0].window);
    ASSERT_TRUE(batch.budgets[1].window);
    EXPECT_EQ(batch.budgets[1].window->schedule.text(), "0 9 * * mon-fri");
    EXPECT_EQ(batch.budgets[1].window->durationUsec, 8ULL * 3'600'000'000);
    EXPECT_EQ(batch.budgets[1].window->timeZone, "Europe/Berlin");
    EXPECT_EQ(pools[1], (store::PoolRecord{.name = "web", .declaredIn = poolFile("web").string()}));
}

TEST_F(PoolFilesTest, AMissingFolderDeclaresNone)
{
    EXPECT_TRUE(loadPoolFiles(directory_.path() / "nosuch").empty());
}

TEST_F(PoolFilesTest, ABadFileIsRefusedNamingFileLineAndWhy)
{
    const std::string batch = poolFile("batch").string();
    write("batch", "[Pool]\nCPU=lots\n");
    EXPECT_EQ(errorOfLoading(), batch + ":2: bad value \"lots\" for [Pool] CPU");
    write("batch", "[Pool]\nCPUs=1\n");
    EXPECT_EQ(errorOfLoading(), batch + ":2: unknown setting [Pool] CPUs (known: CPU, Memory)");
    write("batch", "[Pools]\nCPU=1\n");
    EXPECT_EQ(errorOfLoading(), batch + ":2: unknown section [Pools] (known: [Pool], [Budget NAME])");
    write("batch", "[Budget b]\nPeriodSec=soon\n");
    EXPECT_EQ(errorOfLoading(), batch + ":2: bad value \"soon\" for [Budget b] PeriodSec");
    // Checked as SetPool checks a budget, once the file is read.
    write("batch", "[Budget b]\nValue=1\nTimeZone=Europe/Berlin\n");
    EXPECT_EQ(errorOfLoading(), batch + ": [Budget b]: a budget's TimeZone is that of its Schedule, which it lacks");
    write("batch", "[Budget b]\nPeriodSec=1h\n");
    EXPECT_EQ(errorOfLoading(), batch + ": [Budget b]: a budget needs a Value");
    std::filesystem::remove(poolFile("batch"));
    write("no pool", "[Pool]\n");
    EXPECT_EQ(errorOfLoading().find(poolFile("no pool").string() + ": the file's name is the pool's, and "), 0U);
}

}  // namespace
}  // namespace resized
