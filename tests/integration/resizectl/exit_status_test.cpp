// Every failure class of the D-Bus contract, provoked for real, comes out of
// resizectl as its documented exit status and as "resizectl: <message>".

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "resizectl_fixture.h"
#include "support/cgroup_v1.h"

namespace resized::ctl {
namespace {

using integration::CommandResult;
using integration::ScopedContainer;
using ::testing::HasSubstr;
using ::testing::StartsWith;
using namespace std::chrono_literals;

constexpr uint64_t kMiB = 1ull << 20;

void expectFailure(const CommandResult& result, int exitStatus)
{
    EXPECT_EQ(result.exitStatus, exitStatus) << result.standardOutput << result.standardError;
    EXPECT_THAT(result.standardError, StartsWith("resizectl: "));
}

TEST_F(ResizectlTest, UnknownWorkloadIsStatus5)
{
    expectFailure(resizectl({"status", "no-such-container"}), 5);
    expectFailure(resizectl({"set", "no-such-container", "--cpu", "1"}), 5);
    expectFailure(resizectl({"forget", "no-such-container"}), 5);
    expectFailure(resizectl({"autoscale", "set", "no-such-container", "--cpu-target", "70"}), 5);
    expectFailure(resizectl({"autoscale", "status", "no-such-container"}), 5);
    expectFailure(resizectl({"autoscale", "remove", "no-such-container"}), 5);
}

TEST_F(ResizectlTest, AWorkloadWithoutAnAutoscalePolicyIsStatus5)
{
    const ScopedContainer container(podman(), containerName());

    const auto result = resizectl({"autoscale", "status", container.name()});

    expectFailure(result, 5);
    EXPECT_THAT(result.standardError, HasSubstr(container.name() + " has no autoscale policy"));
    expectFailure(resizectl({"autoscale", "remove", container.name()}), 5);
}

TEST_F(ResizectlTest, StatusShowsTheKnownAndReportsTheUnknown)
{
    const ScopedContainer container(podman(), containerName());

    const auto result = resizectl({"status", "no-such-container", container.name()});

    expectFailure(result, 5);
    EXPECT_THAT(result.standardOutput, StartsWith("● " + container.name() + "\n"));
}

TEST_F(ResizectlTest, OutOfRangeValueIsStatus4AndChangesNothing)
{
    const ScopedContainer container(podman(), containerName());

    expectFailure(resizectl({"set", container.name(), "--cpu", "500m", "--memory", "1Mi"}), 4);
    expectFailure(resizectl({"set", container.name(), "--cpu-weight", "0"}), 4);
    EXPECT_EQ(cgroupCpuMillis(container), std::nullopt);
}

TEST_F(ResizectlTest, MoreThanTheNodeHasIsInfeasibleStatus7)
{
    const ScopedContainer container(podman(), containerName());

    expectFailure(resizectl({"set", container.name(), "--cpu", "1000"}), 7);

    const auto validation = resizectl({"validate", container.name(), "--cpu", "1000"});
    EXPECT_EQ(validation.exitStatus, 3) << validation.standardError;
    EXPECT_THAT(validation.standardOutput, StartsWith("refused: "));
}

TEST_F(ResizectlTest, WhatIsAllocatedElsewhereIsInsufficientStatus6)
{
    const ScopedContainer first(podman(), containerName("a"));
    const ScopedContainer second(podman(), containerName("b"));
    const auto available = resizectlJson({"node"})["CpuAvailableMillis"].get<uint64_t>();
    ASSERT_GT(available, 0u);
    ASSERT_EQ(resizectl({"set", first.name(), "--cpu", std::to_string(available) + "m"}).exitStatus, 0);

    const auto validation = resizectl({"validate", second.name(), "--cpu", "100m"});
    EXPECT_EQ(validation.exitStatus, 3) << validation.standardError;
    EXPECT_THAT(validation.standardOutput, StartsWith("refused: "));

    expectFailure(resizectl({"set", second.name(), "--cpu", "100m"}), 6);
    EXPECT_EQ(cgroupCpuMillis(second), std::nullopt);
}

TEST_F(ResizectlTest, ShrinkBelowUnreclaimableUsageIsMemoryInUseStatus8)
{
    const auto container = ScopedContainer::holdingMemory(podman(), containerName(), 64);
    ASSERT_TRUE(integration::CgroupV1(container.cgroupPath()).waitForMemoryUsageAbove(60 * kMiB, 30s));
    const uint64_t limitBefore = cgroupMemoryLimit(container);

    const auto result = resizectl({"set", container.name(), "--memory", "16Mi", "--reclaim-timeout", "1s"});

    expectFailure(result, 8);
    EXPECT_EQ(cgroupMemoryLimit(container), limitBefore);
}

TEST_F(ResizectlTest, UnprivilegedCallerReadsButIsDeniedChangesStatus11)
{
    const ScopedContainer container(podman(), containerName());

    const auto list = resizectlAsNobody({"list"});
    EXPECT_EQ(list.exitStatus, 0) << list.standardError;
    expectFailure(resizectlAsNobody({"set", container.name(), "--cpu", "200m"}), 11);
    EXPECT_EQ(cgroupCpuMillis(container), std::nullopt);
}

TEST_F(ResizectlTest, StoppedDaemonIsStatus12)
{
    ASSERT_EQ(daemon().stop(), 0);

    const auto result = resizectl({"list"});

    expectFailure(result, 12);
    EXPECT_THAT(result.standardError, HasSubstr("resized is not running"));
}

}  // namespace
}  // namespace resized::ctl
