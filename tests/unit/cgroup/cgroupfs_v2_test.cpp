#include "cgroup/cgroupfs_v2.h"

#include <gtest/gtest.h>

#include <thread>

#include "cgroup/applier.h"
#include "cgroup/usage_files.h"
#include "temp_directory.h"

// cgroup v2 file formats against a directory laid out like a v2 hierarchy
// (this host's cpu and memory controllers are v1; the VM tier covers a real
// v2 kernel).
namespace resized::cgroup {
namespace {

using core::kUnlimited;
using test::readText;
using test::writeText;

constexpr uint64_t kMi = 1 << 20;
const std::string kWorkload = "/machine/workload";

class CgroupfsV2 : public ::testing::Test {
protected:
    CgroupfsV2()
    {
        writeText(root() / "cpuset.cpus.effective", "0-3\n");
        writeText(root() / "machine" / "cpuset.cpus.effective", "0-3\n");
        for (const auto& [name, content] : std::initializer_list<std::pair<const char*, const char*>>{
                 {"cpu.max", "max 100000\n"},
                 {"memory.max", "max\n"},
                 {"memory.high", "max\n"},
                 {"cpu.weight", "100\n"},
                 {"cpuset.cpus", "\n"},
                 {"cpuset.cpus.effective", "0-3\n"},
                 {"memory.current", "1048576\n"},
                 {"memory.reclaim", ""}})
            writeText(file(name), content);
    }

    std::filesystem::path root() const { return dir_.path(); }
    std::filesystem::path file(const char* name) const
    {
        return root() / "machine" / "workload" / name;
    }
    std::string read(const char* name) const { return readText(file(name)); }

    test::TempDirectory dir_;
    CgroupfsV2Backend backend_{dir_.path()};
};

TEST_F(CgroupfsV2, ReadsAnUnlimitedCgroup)
{
    EXPECT_EQ(backend_.driverName(), "cgroupfs-v2");
    const core::Resources expected{.cpuMillis = kUnlimited,
                                   .memoryMax = kUnlimited,
                                   .memoryHigh = kUnlimited,
                                   .cpuWeight = 100,
                                   .allowedCpus = core::CpuSet{}};
    EXPECT_EQ(backend_.read(kWorkload), expected);
}

TEST_F(CgroupfsV2, ReadsCpuMaxRoundedToTheNearestMillicore)
{
    const std::pair<const char*, uint64_t> cases[] = {
        {"150000 100000\n", 1500}, {"33333 100000", 333}, {"66667 100000", 667},
        {"50 100000", 1},          {"5000 1000000", 5},   {"max 50000", kUnlimited},
        {"1000 1000", 1000}};
    for (const auto& [content, millis] : cases) {
        writeText(file("cpu.max"), content);
        EXPECT_EQ(backend_.read(kWorkload).cpuMillis, millis) << content;
    }
}

TEST_F(CgroupfsV2, WritesCpuMax)
{
    backend_.write(kWorkload, {.cpuMillis = 1500});
    EXPECT_EQ(read("cpu.max"), "150000 100000");
    // Under 10 millicores the default period needs a quota below the
    // kernel's 1 ms minimum.
    backend_.write(kWorkload, {.cpuMillis = 5});
    EXPECT_EQ(read("cpu.max"), "5000 1000000");
    EXPECT_EQ(backend_.read(kWorkload).cpuMillis, 5u);
    backend_.write(kWorkload, {.cpuMillis = core::kMaxCpuMillis});
    EXPECT_EQ(read("cpu.max"), "1000000000 100000");
    backend_.write(kWorkload, {.cpuMillis = kUnlimited});
    EXPECT_EQ(read("cpu.max"), "max 100000");
}

TEST_F(CgroupfsV2, WritesAndReadsMemoryLimits)
{
    backend_.write(kWorkload, {.memoryMax = 64 * kMi, .memoryHigh = 48 * kMi});
    EXPECT_EQ(read("memory.max"), "67108864");
    EXPECT_EQ(read("memory.high"), "50331648");
    EXPECT_EQ(backend_.read(kWorkload).memoryMax, 64 * kMi);
    EXPECT_EQ(backend_.read(kWorkload).memoryHigh, 48 * kMi);

    backend_.write(kWorkload, {.memoryMax = kUnlimited, .memoryHigh = kUnlimited});
    EXPECT_EQ(read("memory.max"), "max");
    EXPECT_EQ(read("memory.high"), "max");
}

TEST_F(CgroupfsV2, WritesAndReadsCpuWeight)
{
    backend_.write(kWorkload, {.cpuWeight = 250});
    EXPECT_EQ(read("cpu.weight"), "250");
    EXPECT_EQ(backend_.read(kWorkload).cpuWeight, 250u);
}

TEST_F(CgroupfsV2, AllowedCpus)
{
    backend_.write(kWorkload, {.allowedCpus = core::CpuSet{1, 2}});
    EXPECT_EQ(read("cpuset.cpus"), "1-2\n");
    EXPECT_EQ(backend_.read(kWorkload).allowedCpus, (core::CpuSet{1, 2}));

    // Empty inherits the parent's CPUs.
    backend_.write(kWorkload, {.allowedCpus = core::CpuSet{}});
    EXPECT_EQ(read("cpuset.cpus"), "\n");
    EXPECT_EQ(backend_.read(kWorkload).allowedCpus, core::CpuSet{});

    // Naming exactly the parent's CPUs is no restriction either.
    writeText(file("cpuset.cpus"), "0,1,2,3\n");
    EXPECT_EQ(backend_.read(kWorkload).allowedCpus, core::CpuSet{});
    writeText(file("cpuset.cpus"), "3,0\n");
    EXPECT_EQ(backend_.read(kWorkload).allowedCpus, (core::CpuSet{0, 3}));
}

TEST_F(CgroupfsV2, ParentCpusAreTheParentsEffectiveCpus)
{
    writeText(root() / "machine" / "cpuset.cpus.effective", "1-2\n");
    EXPECT_EQ(backend_.parentCpus(kWorkload), (core::CpuSet{1, 2}));
    EXPECT_EQ(backend_.parentCpus("/machine"), (core::CpuSet{0, 1, 2, 3}));
}

TEST_F(CgroupfsV2, MemoryUsageAndReclaim)
{
    EXPECT_EQ(backend_.memoryUsage(kWorkload), 1048576u);
    backend_.reclaim(kWorkload, 4096);
    EXPECT_EQ(read("memory.reclaim"), "4096");

    std::filesystem::remove(file("memory.reclaim"));
    EXPECT_NO_THROW(backend_.reclaim(kWorkload, 4096)) << "kernels before 5.19 have no memory.reclaim";
}

TEST_F(CgroupfsV2, UsageComesFromCpuStatMemoryStatAndMemoryEvents)
{
    writeText(file("cpu.stat"), "usage_usec 1500\nuser_usec 1000\nsystem_usec 500\nnr_periods 10\n"
                                "nr_throttled 3\nthrottled_usec 100\n");
    writeText(file("memory.stat"), "anon 8192\nfile 65536\nactive_file 61440\ninactive_file 4096\n");
    writeText(file("memory.events"), "low 0\nhigh 0\nmax 2\noom 1\noom_kill 1\n");

    const Usage usage = backend_.usage(kWorkload);

    EXPECT_EQ(usage.cpuNsec, 1'500'000u);
    EXPECT_EQ(usage.throttledPeriods, 3u);
    EXPECT_EQ(usage.memoryBytes, 1048576u);
    EXPECT_EQ(usage.inactiveFileBytes, 4096u);
    EXPECT_EQ(usage.oomKills, 1u);
    EXPECT_EQ(usage.workingSetBytes(), 1048576u - 4096u);
}

TEST_F(CgroupfsV2, UsageFilesHeldOpenReadWhatTheFilesSayNow)
{
    writeText(file("cpu.stat"), "usage_usec 1500\nnr_throttled 3\n");
    const UsageFiles files = backend_.openUsage(kWorkload);
    // The kernel rewrites a counter in place; so does this test.
    writeText(file("cpu.stat"), "usage_usec 2500\nnr_throttled 4\n");

    const Usage usage = files.read();

    EXPECT_EQ(usage.cpuNsec, 2'500'000u);
    EXPECT_EQ(usage.throttledPeriods, 4u);
}

TEST_F(CgroupfsV2, PressureStallTimesComeFromThePressureFilesWhereTheKernelHasThem)
{
    writeText(file("cpu.stat"), "usage_usec 1\n");
    writeText(file("cpu.pressure"), "some avg10=1.50 avg60=0.20 avg300=0.00 total=4200\n"
                                    "full avg10=0.00 avg60=0.00 avg300=0.00 total=900\n");
    writeText(file("memory.pressure"), "some avg10=0.00 avg60=0.00 avg300=0.00 total=77\n");

    const UsageFiles files = backend_.openUsage(kWorkload);
    const Usage usage = files.read();

    ASSERT_TRUE(usage.cpuPressure);
    EXPECT_EQ(usage.cpuPressure->someUsec, 4200u);
    EXPECT_EQ(usage.cpuPressure->fullUsec, 900u);
    ASSERT_TRUE(usage.memoryPressure);
    EXPECT_EQ(usage.memoryPressure->someUsec, 77u);
    EXPECT_EQ(usage.memoryPressure->fullUsec, 0u) << "a missing line reads as no stall";
    EXPECT_FALSE(files.read({.memory = true, .pressure = false}).cpuPressure) << "left out when not asked for";

    std::filesystem::remove(file("memory.pressure"));
    EXPECT_FALSE(backend_.usage(kWorkload).memoryPressure) << "a kernel without PSI has no pressure files";
}

TEST_F(CgroupfsV2, AMalformedPressureLineIsAnErrorNamingTheFile)
{
    writeText(file("cpu.stat"), "usage_usec 1\n");
    writeText(file("cpu.pressure"), "some avg10=1.50 avg60=0.20 avg300=0.00\n");

    try {
        backend_.usage(kWorkload);
        ADD_FAILURE() << "a pressure line without its total was read";
    } catch (const CgroupError& error) {
        EXPECT_NE(std::string(error.what()).find("cpu.pressure"), std::string::npos) << error.what();
    }
}

TEST_F(CgroupfsV2, UsageWithoutTheMemoryControllerReadsNoMemory)
{
    writeText(file("cpu.stat"), "usage_usec 7\nuser_usec 7\nsystem_usec 0\n");
    for (const char* name : {"memory.current", "memory.max", "memory.high"})
        std::filesystem::remove(file(name));

    const Usage usage = backend_.usage(kWorkload);

    EXPECT_EQ(usage.cpuNsec, 7000u);
    EXPECT_EQ(usage.throttledPeriods, 0u) << "no cpu controller, no throttling";
    EXPECT_EQ(usage.memoryBytes, 0u);
    EXPECT_EQ(usage.workingSetBytes(), 0u);
}

TEST_F(CgroupfsV2, AMalformedUsageFileIsAnErrorNamingIt)
{
    writeText(file("cpu.stat"), "usage_usec lots\n");
    try {
        backend_.usage(kWorkload);
        ADD_FAILURE() << "a malformed cpu.stat was read";
    } catch (const CgroupError& error) {
        EXPECT_NE(std::string(error.what()).find("cpu.stat"), std::string::npos) << error.what();
    }
}

TEST_F(CgroupfsV2, AControllerNotEnabledLeavesItsKeysOut)
{
    std::filesystem::remove(file("cpuset.cpus"));
    std::filesystem::remove(file("cpu.max"));
    const auto limits = backend_.read(kWorkload);
    EXPECT_FALSE(limits.allowedCpus);
    EXPECT_FALSE(limits.cpuMillis);
    EXPECT_EQ(limits.memoryMax, kUnlimited);
    EXPECT_THROW(backend_.write(kWorkload, {.cpuMillis = 1000}), CgroupError);
}

TEST_F(CgroupfsV2, AMissingCgroupIsAnError)
{
    EXPECT_THROW(backend_.read("/machine/gone"), CgroupError);
}

TEST_F(CgroupfsV2, MalformedFilesAreErrorsNamingTheFile)
{
    for (const auto& [name, content] : std::initializer_list<std::pair<const char*, const char*>>{
             {"memory.max", "lots\n"}, {"cpu.max", "max\n"}, {"cpu.max", "1000 0\n"},
             {"cpu.weight", "-5\n"},   {"cpuset.cpus", "3-1\n"}}) {
        const auto good = read(name);
        writeText(file(name), content);
        try {
            backend_.read(kWorkload);
            ADD_FAILURE() << name << " holding \"" << content << "\" read without error";
        } catch (const CgroupError& error) {
            EXPECT_NE(std::string(error.what()).find(name), std::string::npos) << error.what();
        }
        writeText(file(name), good);
    }
    EXPECT_NO_THROW(backend_.read(kWorkload));
}

TEST_F(CgroupfsV2, RefusesPathsOutOfTheRoot)
{
    test::TempDirectory outside;
    writeText(outside.path() / "memory.max", "max\n");
    std::filesystem::create_directory_symlink(outside.path(), root() / "machine" / "escape");

    EXPECT_THROW(backend_.read("/machine/../../etc"), CgroupError);
    EXPECT_THROW(backend_.write("/..", {.memoryMax = 64 * kMi}), CgroupError);
    EXPECT_THROW(backend_.read("/machine/escape"), CgroupError);
    EXPECT_THROW(backend_.write("/machine/escape", {.memoryMax = 64 * kMi}), CgroupError);
    EXPECT_EQ(readText(outside.path() / "memory.max"), "max\n");
}

// The applier's memory shrink protocol, seen through the v2 files.
TEST_F(CgroupfsV2, MemoryShrinkBelowUsageAsksForReclaimThenRestores)
{
    writeText(file("memory.current"), std::to_string(212 * kMi));
    ApplyTransaction transaction(backend_, kWorkload, {.memoryMax = 64 * kMi},
                                 {.reclaimTimeout = std::chrono::milliseconds(20),
                                  .reclaimPollInterval = std::chrono::milliseconds(5)});
    while (const auto delay = transaction.advance())
        std::this_thread::sleep_for(*delay);

    EXPECT_EQ(transaction.outcome(), ApplyOutcome::MemoryInUse);
    EXPECT_EQ(transaction.message(),
              "memory usage 212Mi stays above the requested memory.max 64Mi after 20ms of reclaim");
    EXPECT_EQ(read("memory.reclaim"), std::to_string(148 * kMi));
    EXPECT_EQ(read("memory.max"), "max\n") << "memory.max is never written";
    EXPECT_EQ(read("memory.high"), "max") << "memory.high is restored";
    EXPECT_EQ(transaction.actual().memoryMax, kUnlimited);
}

TEST_F(CgroupfsV2, MemoryShrinkAboveUsageApplies)
{
    ApplyTransaction transaction(backend_, kWorkload, {.memoryMax = 64 * kMi}, {});
    EXPECT_EQ(transaction.advance(), std::nullopt);
    EXPECT_EQ(transaction.outcome(), ApplyOutcome::Applied) << transaction.message();
    EXPECT_EQ(read("memory.max"), "67108864");
    EXPECT_EQ(read("memory.high"), "max") << "memory.high goes back once the shrink is done";
}

TEST_F(CgroupfsV2, AFailedWriteRestoresWhatWasWritten)
{
    // Lowering the CPU goes first, raising memory next, and the cpuset (its
    // controller not enabled here) fails last.
    std::filesystem::remove(file("cpuset.cpus"));
    writeText(file("cpu.max"), "200000 100000\n");
    writeText(file("memory.max"), std::to_string(128 * kMi));
    ApplyTransaction transaction(backend_, kWorkload,
                                 {.cpuMillis = 500, .memoryMax = 256 * kMi, .allowedCpus = core::CpuSet{1}}, {});
    EXPECT_EQ(transaction.advance(), std::nullopt);
    EXPECT_EQ(transaction.outcome(), ApplyOutcome::Failed);
    EXPECT_NE(transaction.message().find("AllowedCpus"), std::string::npos) << transaction.message();
    EXPECT_NE(transaction.message().find("cpuset.cpus"), std::string::npos) << transaction.message();
    EXPECT_EQ(read("cpu.max"), "200000 100000");
    EXPECT_EQ(read("memory.max"), std::to_string(128 * kMi));
    EXPECT_EQ(transaction.previous().cpuMillis, 2000u);
    EXPECT_EQ(transaction.actual().cpuMillis, 2000u);
}

}  // namespace
}  // namespace resized::cgroup
