// Podman's API service goes away and comes back: resized says so, answers
// status from its store, refuses changes, and on reconnection catches up with
// what happened meanwhile. A service that hangs holds up only the calls
// that need it.

#include "events_test.h"
#include "support/pipelined_calls.h"
#include "support/podman_service.h"

#include <gtest/gtest.h>

#include <optional>

namespace resized::integration::events
{
namespace
{

// The reconnection backs off up to 30 s between attempts.
constexpr auto reconnectTimeout = std::chrono::seconds(60);

class PodmanServiceTest : public EventsTest
{
  protected:
    // The daemon, on a Podman service of this test's own, and a container
    // it manages.
    void SetUp() override
    {
        EventsTest::SetUp();
        service_.emplace(environment().directory / "events-podman.sock",
                         environment().directory / "events-podman.log");
        daemonOptions().podmanSocket = service_->socket();
        startDaemon();
        container_.emplace(podman(), nameFor("c"));
        bus().updateResources(container_->name(), desired);
    }

    PodmanService& service() { return *service_; }
    const ScopedContainer& container() const { return *container_; }

  private:
    std::optional<PodmanService> service_;
    std::optional<ScopedContainer> container_;
};

TEST_F(PodmanServiceTest, ReconnectionReappliesLimitsOfContainersRestartedMeanwhile)
{
    const ScopedContainer& container = this->container();
    ASSERT_TRUE(waitForRuntimeConnected(true, reactionTimeout));

    service().kill();
    ASSERT_TRUE(waitForRuntimeConnected(false, reactionTimeout));

    const Dictionary stored = bus().resourceStatus(container.name());
    EXPECT_EQ(desiredOf(stored), desired);
    EXPECT_EQ(entryOf<std::string>(stored, "ContainerId"), container.id());
    EXPECT_EQ(errorNameOf([&] {
                  bus().updateResources(container.name(),
                                        {.cpuMillis = 700, .memoryMax = desired.memoryMax});
              }),
              "io.resized1.Error.RuntimeUnavailable");

    // The command line needs no service; nobody can tell resized about it.
    podmanOrThrow({"restart", "--time", "5", container.name()});
    const auto cgroupPath = container.cgroupPath();
    ASSERT_EQ(readLimits(cgroupPath), Limits{}) << "the restart kept the limits";

    service().start();
    const auto serviceBack = std::chrono::steady_clock::now();
    EXPECT_TRUE(waitForRuntimeConnected(true, reconnectTimeout));
    reportDuration("service-start-to-connected", serviceBack);
    EXPECT_TRUE(waitForLimits(cgroupPath, desired));
    expectDesiredLimitsOn(container);
}

// The status of a name resized does not know needs Podman; ListWorkloads,
// sent after it on the same connection, does not, and is answered while
// Podman hangs. The status is answered once Podman is back.
TEST_F(PodmanServiceTest, AHungPodmanHoldsUpOnlyTheCallsThatNeedIt)
{
    service().freeze();
    PipelinedCalls calls;
    const auto& status = calls.call("GetResourceStatus", "s", "nobody-has-this-name");
    const auto& listed = calls.call("ListWorkloads", "");
    const bool listedInTime = calls.waitFor(listed, reactionTimeout);
    const bool statusDoneMeanwhile = calls.process(status);
    service().thaw();

    ASSERT_TRUE(listedInTime);
    EXPECT_EQ(listed.error, "");
    EXPECT_FALSE(statusDoneMeanwhile) << "answered without Podman: " << status.error;
    ASSERT_TRUE(calls.waitFor(status, reactionTimeout));
    EXPECT_EQ(status.error.substr(0, status.error.find(':')), "io.resized1.Error.NoSuchWorkload");
    expectDesiredLimitsOn(container());
}

} // namespace
} // namespace resized::integration::events
