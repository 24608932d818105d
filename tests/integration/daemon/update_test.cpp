// UpdateResources on running containers: each resource key reaches its cgroup
// file and nothing else changes; the answer, GetResourceStatus, ListWorkloads,
// the Workload object and the signals tell the same story. DryRun and
// ValidateResourceUpdate decide without changing anything.

#include "daemon_test.h"
#include "signal_recorder.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <functional>

namespace resized::integration
{
namespace
{

using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Key;
using ::testing::Not;

// Not a global constant: sdbus-c++ variants must not outlive the library's
// own statics at exit.
Dictionary dryRun()
{
    return {{"DryRun", sdbus::Variant(true)}};
}

std::uint64_t generationOf(const Dictionary& status)
{
    return entryOf<std::uint64_t>(status, "Generation");
}

// One resource key: the request and what it does to the cgroup files.
struct KeyCase
{
    std::string name;
    ResourceValues request;
    std::function<void(CgroupLimits&)> expectedChange;
};

class ResourceKeyTest : public DaemonTest, public ::testing::WithParamInterface<KeyCase>
{};

TEST_P(ResourceKeyTest, ReachesItsCgroupFileAndNoOther)
{
    const auto container = runContainer("c");
    CgroupLimits expected = CgroupLimits::read(container.cgroupPath());
    GetParam().expectedChange(expected);

    const Dictionary status = client().updateResources(container.name(), GetParam().request);

    EXPECT_EQ(CgroupLimits::read(container.cgroupPath()), expected);
    EXPECT_EQ(desiredOf(status), GetParam().request);
    const auto actual = entryOf<Dictionary>(status, "Actual");
    ASSERT_TRUE(actual.contains(GetParam().name));
    EXPECT_EQ(ResourceValues::fromDictionary({{GetParam().name, actual.at(GetParam().name)}}),
              GetParam().request);
}

INSTANTIATE_TEST_SUITE_P(
    EachKey, ResourceKeyTest,
    ::testing::Values(
        KeyCase{"CpuMillis", {.cpuMillis = 700},
                [](CgroupLimits& limits) {
                    limits.cpuQuotaUs = 70000;
                    limits.cpuPeriodUs = 100000;
                }},
        KeyCase{"MemoryMax", {.memoryMax = 256 * mebibyte},
                [](CgroupLimits& limits) { limits.memoryLimit = 256 * mebibyte; }},
        KeyCase{"MemoryHigh", {.memoryHigh = 192 * mebibyte},
                [](CgroupLimits& limits) { limits.memorySoftLimit = 192 * mebibyte; }},
        KeyCase{"CpuWeight", {.cpuWeight = 50},
                [](CgroupLimits& limits) { limits.cpuShares = 50 * 1024 / 100; }},
        KeyCase{"AllowedCpus", {.allowedCpus = "0"},
                [](CgroupLimits& limits) { limits.cpus = "0"; }}),
    [](const auto& info) { return info.param.name; });

const ResourceValues everyKey{
    .cpuMillis = 600,
    .memoryMax = 300 * mebibyte,
    .memoryHigh = 200 * mebibyte,
    .cpuWeight = 200,
    .allowedCpus = "0",
};

using UpdateTest = DaemonTest;

TEST_F(UpdateTest, AnswerDescribesTheAppliedState)
{
    const auto container = runContainer("c");

    const Dictionary status = client().updateResources(container.name(), everyKey);

    const CgroupLimits limits = CgroupLimits::read(container.cgroupPath());
    EXPECT_EQ(limits.cpuQuotaUs, 60000);
    EXPECT_EQ(limits.memoryLimit, 300 * mebibyte);
    EXPECT_EQ(limits.memorySoftLimit, 200 * mebibyte);
    EXPECT_EQ(limits.cpuShares, 2048U);
    EXPECT_EQ(limits.cpus, "0");
    EXPECT_EQ(entryOf<std::string>(status, "Workload"), container.name());
    EXPECT_EQ(entryOf<std::string>(status, "ContainerId"), container.id());
    EXPECT_EQ(entryOf<std::string>(status, "CgroupPath"), container.cgroupPath().string());
    EXPECT_EQ(entryOf<std::string>(status, "Driver"), "cgroupfs-v1");
    EXPECT_EQ(desiredOf(status), everyKey);
    EXPECT_EQ(actualOf(status), everyKey);
    EXPECT_EQ(entryOf<std::string>(status, "SyncState"), "synchronized");
    EXPECT_EQ(entryOf<std::string>(status, "UpdateState"), "success");
    EXPECT_EQ(generationOf(status), 1U);
    EXPECT_EQ(entryOf<std::uint64_t>(status, "ObservedGeneration"), 1U);
    EXPECT_GT(entryOf<std::uint64_t>(status, "UpdatedAtUSec"), 0U);
}

TEST_F(UpdateTest, GetResourceStatusAgreesWithTheAnswer)
{
    const auto container = runContainer("c");
    const Dictionary answer = client().updateResources(container.name(), everyKey);

    const Dictionary status = client().getResourceStatus(container.name());

    EXPECT_EQ(desiredOf(status), desiredOf(answer));
    EXPECT_EQ(actualOf(status), actualOf(answer));
    for (const char* key : {"Workload", "ContainerId", "CgroupPath", "Driver", "SyncState",
                            "UpdateState", "Message"})
    {
        EXPECT_EQ(entryOf<std::string>(status, key), entryOf<std::string>(answer, key)) << key;
    }
    for (const char* key : {"Generation", "ObservedGeneration", "UpdatedAtUSec"})
    {
        EXPECT_EQ(entryOf<std::uint64_t>(status, key), entryOf<std::uint64_t>(answer, key))
            << key;
    }
}

TEST_F(UpdateTest, SecondUpdateBumpsTheGenerationAndKeepsOtherKeys)
{
    const auto container = runContainer("c");
    client().updateResources(container.name(), ResourceValues{.cpuMillis = 300});

    const Dictionary status = client().updateResources(
        container.name(), ResourceValues{.memoryMax = 128 * mebibyte});

    EXPECT_EQ(desiredOf(status), (ResourceValues{.cpuMillis = 300, .memoryMax = 128 * mebibyte}));
    EXPECT_EQ(generationOf(status), 2U);
    EXPECT_EQ(entryOf<std::uint64_t>(status, "ObservedGeneration"), 2U);
    const CgroupLimits limits = CgroupLimits::read(container.cgroupPath());
    EXPECT_EQ(limits.cpuMillis(), 300U);
    EXPECT_EQ(limits.memoryLimit, 128 * mebibyte);
}

TEST_F(UpdateTest, WorkloadIsPublishedOnTheBus)
{
    const auto container = runContainer("c");
    const std::string path = workloadPathOf(container.name());
    const SignalRecorder signals;

    client().updateResources(container.name(), ResourceValues{.cpuMillis = 400});

    EXPECT_THAT(client().listWorkloads(),
                ::testing::ElementsAre(WorkloadEntry(container.name(), "synchronized",
                                                     "success", sdbus::ObjectPath(path))));
    EXPECT_THAT(client().managedObjects(), Contains(Key(sdbus::ObjectPath(path))));
    const Dictionary properties = client().workloadProperties(sdbus::ObjectPath(path));
    EXPECT_EQ(entryOf<std::string>(properties, "Name"), container.name());
    EXPECT_EQ(entryOf<std::string>(properties, "ContainerId"), container.id());
    EXPECT_EQ(entryOf<std::string>(properties, "CgroupPath"), container.cgroupPath().string());
    EXPECT_EQ(desiredOf(properties), ResourceValues{.cpuMillis = 400});
    EXPECT_EQ(actualOf(properties).cpuMillis, 400U);
    EXPECT_EQ(entryOf<std::string>(properties, "SyncState"), "synchronized");
    EXPECT_EQ(entryOf<std::string>(properties, "UpdateState"), "success");
    EXPECT_EQ(entryOf<std::string>(properties, "Message"), "");
    EXPECT_EQ(entryOf<std::uint64_t>(properties, "Generation"), 1U);
    EXPECT_EQ(entryOf<std::uint64_t>(properties, "ObservedGeneration"), 1U);
    EXPECT_TRUE(signals.waitFor("InterfacesAdded", path, workloadInterface));
    EXPECT_TRUE(signals.waitFor("PropertiesChanged", managerInterface, "CpuAllocatedMillis"));
    EXPECT_TRUE(signals.waitFor("ResourcesApplied", container.name()));
    EXPECT_EQ(client().managerNumber("CpuAllocatedMillis"), 400U);
}

TEST_F(UpdateTest, DryRunOfANewWorkloadChangesNothing)
{
    const auto container = runContainer("c", {"--cpus=0.5"});
    const CgroupLimits before = CgroupLimits::read(container.cgroupPath());
    ASSERT_TRUE(cpuAllocationReaches(500)) << "the container's start was never counted";

    const Dictionary answer = client().updateResources(
        container.name(), ResourceValues{.cpuMillis = 800, .memoryMax = 128 * mebibyte},
        dryRun());

    EXPECT_EQ(entryOf<std::string>(answer, "Workload"), container.name());
    EXPECT_EQ(CgroupLimits::read(container.cgroupPath()), before);
    EXPECT_EQ(generationOf(answer), 0U);
    EXPECT_THAT(client().listWorkloads(), IsEmpty());
    EXPECT_THAT(client().managedObjects(),
                Not(Contains(Key(sdbus::ObjectPath(workloadPathOf(container.name()))))));
    const Dictionary status = client().getResourceStatus(container.name());
    EXPECT_EQ(generationOf(status), 0U);
    EXPECT_EQ(desiredOf(status), ResourceValues{});
    EXPECT_EQ(client().managerNumber("CpuAllocatedMillis"), 500U);
    EXPECT_EQ(client().managerNumber("CpuReservedMillis"), 0U);
}

TEST_F(UpdateTest, DryRunOfAManagedWorkloadKeepsItsDesiredState)
{
    const auto container = runContainer("c");
    client().updateResources(container.name(), ResourceValues{.cpuMillis = 400});
    const CgroupLimits before = CgroupLimits::read(container.cgroupPath());

    client().updateResources(container.name(),
                             ResourceValues{.cpuMillis = 900, .memoryMax = 128 * mebibyte},
                             dryRun());

    EXPECT_EQ(CgroupLimits::read(container.cgroupPath()), before);
    const Dictionary status = client().getResourceStatus(container.name());
    EXPECT_EQ(generationOf(status), 1U);
    EXPECT_EQ(desiredOf(status), ResourceValues{.cpuMillis = 400});
    EXPECT_EQ(client().managerNumber("CpuAllocatedMillis"), 400U);
}

TEST_F(UpdateTest, DryRunStillRefusesWhatDoesNotFit)
{
    const auto container = runContainer("c");
    const CgroupLimits before = CgroupLimits::read(container.cgroupPath());

    const auto error = errorOf([&] {
        client().updateResources(container.name(),
                                 ResourceValues{.cpuMillis = cpuCapacity() + 1}, dryRun());
    });

    ASSERT_TRUE(error);
    EXPECT_EQ(error->getName(), "io.resized1.Error.Infeasible");
    EXPECT_EQ(CgroupLimits::read(container.cgroupPath()), before);
}

using ValidateTest = DaemonTest;

TEST_F(ValidateTest, AllowsWhatFitsWithoutApplyingIt)
{
    const auto container = runContainer("c");
    const CgroupLimits before = CgroupLimits::read(container.cgroupPath());

    const auto [allowed, reason] = client().validateResourceUpdate(
        container.name(),
        ResourceValues{.cpuMillis = 500, .memoryMax = 256 * mebibyte}.toDictionary());

    EXPECT_TRUE(allowed);
    EXPECT_EQ(reason, "");
    EXPECT_EQ(CgroupLimits::read(container.cgroupPath()), before);
    EXPECT_THAT(client().listWorkloads(), IsEmpty());
}

TEST_F(ValidateTest, RefusesMoreThanTheNodeHasWithAReason)
{
    const auto container = runContainer("c");

    const auto [allowed, reason] = client().validateResourceUpdate(
        container.name(), ResourceValues{.cpuMillis = cpuCapacity() + 1}.toDictionary());

    EXPECT_FALSE(allowed);
    EXPECT_THAT(reason, Not(IsEmpty()));
}

TEST_F(ValidateTest, RefusesMoreThanIsLeftWithAReason)
{
    const auto first = runContainer("first");
    const auto second = runContainer("second");
    client().updateResources(first.name(), ResourceValues{.cpuMillis = cpuCapacity() - 300});

    const auto [allowed, reason] = client().validateResourceUpdate(
        second.name(), ResourceValues{.cpuMillis = 500}.toDictionary());

    EXPECT_FALSE(allowed);
    EXPECT_THAT(reason, HasSubstr("300m"));
}

TEST_F(ValidateTest, BadKeyIsAnInvalidArgument)
{
    const auto container = runContainer("c");

    const auto error = errorOf([&] {
        client().validateResourceUpdate(container.name(),
                                        {{"CpuMilis", sdbus::Variant(std::uint64_t{500})}});
    });

    ASSERT_TRUE(error);
    EXPECT_EQ(error->getName(), "io.resized1.Error.InvalidArgument");
}

} // namespace
} // namespace resized::integration
