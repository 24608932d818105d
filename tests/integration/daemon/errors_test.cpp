// Every error of the contract, each checked to have changed nothing: neither
// the cgroup files nor the workload's status.

#include "daemon_test.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <functional>

namespace resized::integration
{
namespace
{

using ::testing::AllOf;
using ::testing::HasSubstr;

constexpr auto invalidArgument = "io.resized1.Error.InvalidArgument";
constexpr auto noSuchWorkload = "io.resized1.Error.NoSuchWorkload";
constexpr auto infeasible = "io.resized1.Error.Infeasible";
constexpr auto insufficientResources = "io.resized1.Error.InsufficientResources";
constexpr auto accessDenied = "org.freedesktop.DBus.Error.AccessDenied";

// An update of a workload resized already manages, so that "nothing
// changed" covers its desired state and generation too.
class ErrorTest : public ManagedContainerTest
{
  protected:
    void SetUp() override
    {
        ManagedContainerTest::SetUp();
        if (IsSkipped())
        {
            return;
        }
        before_ = CgroupLimits::read(container().cgroupPath());
    }

    // The update's error (nullopt when it succeeded), after checking that it
    // left the cgroup files and the status as they were.
    std::optional<sdbus::Error> refusedUpdate(const std::string& workload,
                                              const Dictionary& resources,
                                              const Dictionary& options = {})
    {
        auto error = errorOf([&] { client().updateResources(workload, resources, options); });
        expectNothingChanged();
        return error;
    }

    void expectNothingChanged()
    {
        EXPECT_EQ(CgroupLimits::read(container().cgroupPath()), before_);
        const Dictionary status = client().getResourceStatus(name());
        EXPECT_EQ(desiredOf(status), managed);
        EXPECT_EQ(entryOf<std::uint64_t>(status, "Generation"), 1U);
        EXPECT_EQ(entryOf<std::string>(status, "SyncState"), "synchronized");
        EXPECT_EQ(client().managerNumber("CpuReservedMillis"), 0U);
    }

  private:
    CgroupLimits before_;
};

Dictionary oneKey(const std::string& key, sdbus::Variant value)
{
    return {{key, std::move(value)}};
}

// Made when the test runs: sdbus-c++ variants must not outlive the library's
// own statics at exit, as test parameters would.
struct InvalidCase
{
    std::string name;
    std::function<Dictionary()> resources;
    std::function<Dictionary()> options = [] { return Dictionary{}; };
};

class InvalidArgumentTest : public ErrorTest, public ::testing::WithParamInterface<InvalidCase>
{};

TEST_P(InvalidArgumentTest, ChangesNothing)
{
    const auto error = refusedUpdate(name(), GetParam().resources(), GetParam().options());

    ASSERT_TRUE(error) << "the update was applied";
    EXPECT_EQ(error->getName(), invalidArgument) << error->getMessage();
}

INSTANTIATE_TEST_SUITE_P(
    EachInvalidRequest, InvalidArgumentTest,
    ::testing::Values(
        InvalidCase{"UnknownKey",
                    [] { return oneKey("CpuQuota", sdbus::Variant(std::uint64_t{500})); }},
        InvalidCase{"WrongVariantType",
                    [] { return oneKey("CpuMillis", sdbus::Variant(std::string("500m"))); }},
        InvalidCase{"CpuMillisZero",
                    [] { return oneKey("CpuMillis", sdbus::Variant(std::uint64_t{0})); }},
        InvalidCase{"MemoryMaxOneMebibyte",
                    [] { return oneKey("MemoryMax", sdbus::Variant(mebibyte)); }},
        InvalidCase{"CpuWeightZero",
                    [] { return oneKey("CpuWeight", sdbus::Variant(std::uint64_t{0})); }},
        InvalidCase{"CpuWeightAboveRange",
                    [] { return oneKey("CpuWeight", sdbus::Variant(std::uint64_t{10001})); }},
        InvalidCase{"MalformedAllowedCpus",
                    [] { return oneKey("AllowedCpus", sdbus::Variant(std::string("1-"))); }},
        InvalidCase{"UnknownOption",
                    [] { return oneKey("CpuMillis", sdbus::Variant(std::uint64_t{400})); },
                    [] { return oneKey("Hurry", sdbus::Variant(true)); }},
        // One bad key spoils the valid ones beside it.
        InvalidCase{"ValidKeyWithInvalidOne",
                    [] {
                        return Dictionary{{"CpuMillis", sdbus::Variant(std::uint64_t{400})},
                                          {"MemoryHigh", sdbus::Variant(std::uint64_t{1})}};
                    }}),
    [](const auto& info) { return info.param.name; });

using RefusalTest = ErrorTest;

TEST_F(RefusalTest, UnknownWorkloadIsNoSuchWorkload)
{
    for (const std::string workload : {"no-such-container", "../..", "/"})
    {
        SCOPED_TRACE(workload);
        const auto error =
            refusedUpdate(workload, ResourceValues{.cpuMillis = 400}.toDictionary());

        ASSERT_TRUE(error) << "the update was applied";
        EXPECT_EQ(error->getName(), noSuchWorkload) << error->getMessage();
        const auto statusError = errorOf([&] { client().getResourceStatus(workload); });
        ASSERT_TRUE(statusError);
        EXPECT_EQ(statusError->getName(), noSuchWorkload) << statusError->getMessage();
    }
}

TEST_F(RefusalTest, MoreCpuThanTheNodeHasIsInfeasible)
{
    const auto error =
        refusedUpdate(name(), ResourceValues{.cpuMillis = cpuCapacity() + 1}.toDictionary());

    ASSERT_TRUE(error) << "the update was applied";
    EXPECT_EQ(error->getName(), infeasible) << error->getMessage();
}

TEST_F(RefusalTest, CpuTheNodeLacksIsInfeasible)
{
    const auto cpus = affinityCpus();
    unsigned lacking = 0;
    while (cpus.contains(lacking))
    {
        ++lacking;
    }

    const auto error = refusedUpdate(
        name(), ResourceValues{.allowedCpus = std::to_string(lacking)}.toDictionary());

    ASSERT_TRUE(error) << "the update was applied";
    EXPECT_EQ(error->getName(), infeasible) << error->getMessage();
}

TEST_F(RefusalTest, MoreThanIsLeftIsInsufficientResourcesNamingAskedAndAvailable)
{
    const auto other = runContainer("other");
    // Taken by the other container: everything but 200m beyond what the
    // managed container holds.
    const std::uint64_t taken = cpuCapacity() - *managed.cpuMillis - 200;
    client().updateResources(other.name(), ResourceValues{.cpuMillis = taken});
    const CgroupLimits otherBefore = CgroupLimits::read(other.cgroupPath());

    // 300m more than the 300m held, with 200m left.
    const auto error = refusedUpdate(name(), ResourceValues{.cpuMillis = 600}.toDictionary());

    ASSERT_TRUE(error) << "the update was applied";
    EXPECT_EQ(error->getName(), insufficientResources);
    EXPECT_THAT(error->getMessage(), AllOf(HasSubstr("300m"), HasSubstr("200m")));
    EXPECT_EQ(CgroupLimits::read(other.cgroupPath()), otherBefore);
}

TEST_F(RefusalTest, UnprivilegedCallerMayReadButNotChange)
{
    for (const std::string method : {"UpdateResources", "Reconcile", "Forget"})
    {
        EXPECT_EQ(callAsNobody({method, name()}), accessDenied) << method;
    }
    for (const std::string method : {"GetResourceStatus", "ValidateResourceUpdate"})
    {
        EXPECT_EQ(callAsNobody({method, name()}), "ok") << method;
    }
    EXPECT_EQ(callAsNobody({"ListWorkloads"}), "ok");

    expectNothingChanged();
}

} // namespace
} // namespace resized::integration
