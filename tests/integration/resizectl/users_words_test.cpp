// resizectl against the real daemon, answering in the user's words: the
// verb or option typed, the flag and the units of a value, the short
// container ID as Podman takes it; and the verbs that change something say
// what is now in force.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "resizectl_fixture.h"
#include "support/cgroup_v1.h"

namespace resized::ctl {
namespace {

using integration::ScopedContainer;
using ::testing::ContainsRegex;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::MatchesRegex;
using ::testing::StartsWith;

constexpr int kUsage = 2;
constexpr int kInvalidArgument = 4;
constexpr int kInfeasible = 7;
constexpr int kMemoryInUse = 8;
constexpr uint64_t kMiB = 1ull << 20;
using namespace std::chrono_literals;

TEST_F(ResizectlTest, AMisspeltVerbOrOptionIsNamedWithTheNearestOne)
{
    const ScopedContainer container(podman(), containerName());

    const auto verb = resizectl({"stauts", container.name()});
    expectExit(verb, kUsage);
    EXPECT_EQ(verb.standardError,
              "resizectl: unknown command 'stauts'; did you mean 'status'? See 'resizectl --help'.\n");
    const auto option = resizectl({"set", container.name(), "--cpu-shars", "512"});
    expectExit(option, kUsage);
    EXPECT_EQ(option.standardError, "resizectl: unknown option '--cpu-shars' for 'resizectl set'; did you mean "
                                    "'--cpu-shares'? See 'resizectl set --help'.\n");
}

TEST_F(ResizectlTest, ValuesOutOfRangeAreRefusedInTheUsersWordsAndChangeNothing)
{
    const ScopedContainer container(podman(), containerName());

    const auto cpus = resizectl({"set", container.name(), "--cpus", "0"});
    expectExit(cpus, kInvalidArgument);
    EXPECT_EQ(cpus.standardError,
              "resizectl: --cpus 0: below the smallest CPU limit, 0.001 CPUs (1m); 'max' for none\n");
    const auto memory = resizectl({"set", container.name(), "--memory", "1m"});
    expectExit(memory, kInvalidArgument);
    EXPECT_EQ(memory.standardError, "resizectl: --memory 1m: below the smallest memory limit, 4m; 'max' for none\n");
    EXPECT_EQ(cgroupCpuMillis(container), std::nullopt);
}

// The daemon's refusal, led by the option it is about, with sizes as
// people read them rather than in exact kibibytes.
TEST_F(ResizectlTest, MoreMemoryThanTheNodeHasIsNamedInReadableUnits)
{
    const ScopedContainer container(podman(), containerName());

    const auto result = resizectl({"set", container.name(), "--memory", "100000000000000"});

    expectExit(result, kInfeasible);
    EXPECT_THAT(result.standardError,
                MatchesRegex("resizectl: --memory 100000000000000: asked 90\\.9Ti memory, more than this node's "
                             "allocatable [0-9]+(\\.[0-9])?[KMGT]i\n"));
    const auto refused = resizectl({"validate", container.name(), "-m", "100000000000000"});
    EXPECT_THAT(refused.standardOutput,
                StartsWith("refused: --memory 100000000000000: asked 90.9Ti memory, more than this node's "
                           "allocatable "));
}

// Memory that cannot be reclaimed (shared memory, no swap): a shrink below
// it is refused with the usage in readable units, and with --force the
// kernel's EBUSY is explained rather than passed on.
TEST_F(ResizectlTest, AShrinkBelowUnreclaimableMemoryIsExplainedInWords)
{
    const auto container = ScopedContainer::holdingMemory(podman(), containerName(), 64);
    ASSERT_TRUE(integration::CgroupV1(container.cgroupPath()).waitForMemoryUsageAbove(60 * kMiB, 30s));

    const auto refused = resizectl({"set", container.name(), "--memory", "16m", "--reclaim-timeout", "1s"});
    expectExit(refused, kMemoryInUse);
    EXPECT_THAT(refused.standardError, StartsWith("resizectl: --memory 16m: "));
    EXPECT_THAT(refused.standardError, Not(ContainsRegex("[0-9]{4,}Ki")));

    const auto forced = resizectl({"set", container.name(), "--memory", "16m", "--force", "--reclaim-timeout", "1s"});
    expectExit(forced, kMemoryInUse);
    EXPECT_THAT(forced.standardError, HasSubstr("Device or resource busy"));
    EXPECT_THAT(forced.standardError,
                HasSubstr("(the kernel would not lower the cgroup v1 memory limit below the memory the container "
                          "holds: it reclaimed what it could and the rest is in use, which --force cannot change; "
                          "free memory inside the container, or ask for a higher limit)\n"));
}

TEST_F(ResizectlTest, CpusFinerThanAMillicoreAreRoundedAndSaid)
{
    const ScopedContainer container(podman(), containerName());

    const auto result = resizectl({"set", container.name(), "--cpus", "1.23456"});

    expectExit(result, 0);
    EXPECT_EQ(result.standardError, "resizectl: note: --cpus 1.23456: rounded to 1.235 CPUs (1235m); resized keeps "
                                    "CPU limits in whole millicores\n");
    EXPECT_EQ(cgroupCpuMillis(container), 1235u);
    expectExit(resizectl({"set", container.name(), "--cpu-quota", "50000", "--cpu-period", "100000"}), 0);
    EXPECT_EQ(cgroupCpuMillis(container), 500u);
}

// Podman takes any unique prefix of a container ID; the daemon takes 12
// digits and more.
TEST_F(ResizectlTest, AShortUniqueIdPrefixIsExpandedAndSaid)
{
    const ScopedContainer container(podman(), containerName());
    expectExit(resizectl({"set", container.name(), "--cpus", "1"}), 0);
    const std::string prefix = container.id().substr(0, 6);

    const auto status = resizectl({"status", prefix});

    expectExit(status, 0);
    EXPECT_EQ(status.standardError, "resizectl: note: '" + prefix + "' is the container " + container.name() + " (" +
                                        container.id().substr(0, 12) + ")\n");
    EXPECT_THAT(status.standardOutput, StartsWith("● " + container.name() + "\n"));
    expectExit(resizectl({"set", prefix, "--cpus", "500m"}), 0);
    EXPECT_EQ(cgroupCpuMillis(container), 500u);
}

// `autoscale set` changes what it is given and keeps the rest: adding
// --mode recommend once dropped the memory target, the bounds and the window.
TEST_F(ResizectlTest, AutoscaleSetChangesOnlyWhatItIsGiven)
{
    const ScopedContainer container(podman(), containerName());
    const auto first = resizectl({"autoscale", "set", container.name(), "--cpu-target", "70", "--cpu-max", "2",
                                  "--memory-target", "80", "--memory-max", "1g", "--scale-down-window", "10min"});
    expectExit(first, 0);
    // It prints the policy in force, as `autoscale status` does.
    EXPECT_THAT(first.standardOutput, StartsWith("● " + container.name() + "\n"));

    expectExit(resizectl({"autoscale", "set", container.name(), "--mode", "recommend"}), 0);

    const auto kept = resizectlJson({"autoscale", "status", container.name()})["Autoscale"];
    EXPECT_EQ(kept["Mode"], "recommend");
    EXPECT_EQ(kept["CpuTargetUtilization"], 70u);
    EXPECT_EQ(kept["CpuMaxMillis"], 2000u);
    EXPECT_EQ(kept["MemoryTargetUtilization"], 80u);
    EXPECT_EQ(kept["MemoryMaxBytes"], 1ull << 30);
    EXPECT_EQ(kept["ScaleDownStabilizationUSec"], 600'000'000u);

    expectExit(resizectl({"autoscale", "set", container.name(), "--memory-min", "256m"}), 0);
    EXPECT_EQ(resizectlJson({"autoscale", "status", container.name()})["Autoscale"]["MemoryMinBytes"], 256u << 20);

    expectExit(resizectl({"autoscale", "set", container.name(), "--reset", "--cpu-target", "60"}), 0);
    const auto replaced = resizectlJson({"autoscale", "status", container.name()})["Autoscale"];
    EXPECT_EQ(replaced["CpuTargetUtilization"], 60u);
    EXPECT_FALSE(replaced.contains("MemoryTargetUtilization"));
    EXPECT_EQ(replaced["Mode"], "auto");
}

// A monitoring script's loop: a policy on the application's frames per
// second, then `report` as the figures come; the daemon holds what was
// reported, and a report without a policy or with a bad pair is refused.
TEST_F(ResizectlTest, ReportFeedsTheMetricOfAnAutoscalePolicy)
{
    const ScopedContainer container(podman(), containerName());
    expectExit(resizectl({"report", container.name(), "fps=30"}), 5);

    expectExit(resizectl({"autoscale", "set", container.name(), "--metric", "fps:60:higher", "--cpu-max", "1",
                          "--mode", "recommend"}),
               0);
    const auto shown = resizectlJson({"autoscale", "status", container.name()});
    ASSERT_TRUE(shown.contains("Autoscale")) << shown.dump();
    const auto& policy = shown["Autoscale"];
    // By metric name, as the policy names them.
    ASSERT_TRUE(policy.contains("Metrics") && policy["Metrics"].contains("fps")) << policy.dump();
    EXPECT_EQ(policy["Metrics"]["fps"]["Target"], 60.0) << policy.dump();
    EXPECT_EQ(policy["Metrics"]["fps"]["Direction"], "HigherIsBetter") << policy.dump();
    EXPECT_EQ(policy["CpuMaxMillis"], 1000u);

    expectExit(resizectl({"report", container.name(), "fps=45.5"}), 0);
    const auto status = resizectlJson({"autoscale", "status", container.name()});
    ASSERT_TRUE(status.contains("AutoscaleStatus") && status["AutoscaleStatus"].contains("Metrics")) << status.dump();
    EXPECT_EQ(status["AutoscaleStatus"]["Metrics"]["fps"], 45.5) << status.dump();
    EXPECT_TRUE(status["AutoscaleStatus"]["MetricsAgeUSec"]["fps"].is_number_unsigned()) << status.dump();
    EXPECT_THAT(resizectl({"autoscale", "status", container.name()}).standardOutput, HasSubstr("reported 45.5"));

    expectExit(resizectl({"report", container.name(), "fps"}), kUsage);
    expectExit(resizectl({"report", container.name(), "fps=fast"}), kUsage);
}

TEST_F(ResizectlTest, PoolSetSaysWhatIsNowInForce)
{
    const auto result = resizectl({"pool", "set", "batch", "--cpus", "2", "--memory", "1g"});

    expectExit(result, 0);
    EXPECT_THAT(result.standardOutput, StartsWith("● batch\n"));
    EXPECT_THAT(result.standardOutput, HasSubstr("CPU: "));
}

}  // namespace
}  // namespace resized::ctl
