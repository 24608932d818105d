#include "hostile_test.h"

#include <gtest/gtest.h>

namespace resized::integration
{

void HostileTest::SetUp()
{
    DaemonTest::SetUp();
    if (IsSkipped())
    {
        return;
    }
    connection_ = sdbus::createSystemBusConnection();
    // Only once the daemon has handled the container's start event (it
    // counts the container's 100m then) is the container managed: a start
    // handled after the test began would re-apply the limits and repair
    // what the test changed behind resized's back.
    container_.emplace(podman(), containerName("c"), std::vector<std::string>{"--cpus=0.1"});
    ASSERT_TRUE(daemon().waitForStartEvent(container_->name())) << "resized did not see the container start";
    ASSERT_TRUE(cpuAllocationReaches(100));
    client().updateResources(name(), managed);
    limitsBefore_ = CgroupLimits::read(container_->cgroupPath());
    generationBefore_ =
        entryOf<std::uint64_t>(client().getResourceStatus(name()), "Generation");
}

void HostileTest::TearDown()
{
    container_.reset();
    DaemonTest::TearDown();
}

RawCall HostileTest::managerCall(const std::string& method)
{
    return RawCall(*connection_, managerPath, managerInterface, method);
}

RawCall HostileTest::workloadCall(const std::string& method)
{
    return RawCall(*connection_, workloadPath(), workloadInterface, method);
}

std::string HostileTest::errorNameOf(const std::function<void()>& call)
{
    const auto error = errorOf(call);
    return error ? error->getName() : "";
}

void HostileTest::expectUntouched()
{
    ASSERT_TRUE(daemon().running()) << "resized died";
    EXPECT_EQ(CgroupLimits::read(container_->cgroupPath()), limitsBefore_);
    const Dictionary status = client().getResourceStatus(name());
    EXPECT_EQ(desiredOf(status), managed);
    EXPECT_EQ(entryOf<std::uint64_t>(status, "Generation"), generationBefore_);
    EXPECT_EQ(entryOf<std::string>(status, "SyncState"), "synchronized");
    EXPECT_EQ(client().listWorkloads().size(), 1U);
    EXPECT_EQ(client().managerNumber("CpuReservedMillis"), 0U);
}

} // namespace resized::integration
