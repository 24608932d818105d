// The status key Pod: the Podman pod a container belongs to, "" when none
// (docs/dbus-api.md), for containers resized manages and for those it does
// not.

#include "daemon_test.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace resized::integration
{
namespace
{

// A pod with its infra container (and so a cgroup of its own, as pods have in
// production), removed with its containers when this goes out of scope.
class PodOfTheTest
{
  public:
    PodOfTheTest(const PodmanCli& podman, std::string name) :
        podman_(podman), name_(std::move(name))
    {
        const CommandResult created = podman_.run({"pod", "create", "--name", name_});
        if (!created.succeeded())
        {
            podman_.run({"pod", "rm", "--force", "--time", "0", name_});
            throw std::runtime_error("podman pod create " + name_ + " failed: " +
                                     created.standardError);
        }
    }
    PodOfTheTest(const PodOfTheTest&) = delete;
    PodOfTheTest& operator=(const PodOfTheTest&) = delete;
    ~PodOfTheTest()
    {
        const CommandResult removed = podman_.run({"pod", "rm", "--force", "--time", "0", name_});
        if (!removed.succeeded())
        {
            ADD_FAILURE() << "pod " << name_ << " is left behind: " << removed.standardError;
        }
    }

    const std::string& name() const { return name_; }

  private:
    PodmanCli podman_;
    std::string name_;
};

using PodStatusTest = DaemonTest;

TEST_F(PodStatusTest, StatusNamesThePodOfAContainer)
{
    const PodOfTheTest pod(podman(), containerName("pod"));
    const auto member = runContainer("member", {"--pod", pod.name()});
    const auto alone = runContainer("alone");

    EXPECT_EQ(entryOf<std::string>(client().getResourceStatus(member.name()), "Pod"),
              pod.name());
    EXPECT_EQ(entryOf<std::string>(client().getResourceStatus(alone.name()), "Pod"), "");

    const Dictionary answer =
        client().updateResources(member.name(), ResourceValues{.cpuMillis = 300});
    EXPECT_EQ(entryOf<std::string>(answer, "Pod"), pod.name());
    EXPECT_EQ(entryOf<std::string>(client().getResourceStatus(member.name()), "Pod"),
              pod.name());
    EXPECT_EQ(CgroupLimits::read(member.cgroupPath()).cpuMillis(), 300U);
}

} // namespace
} // namespace resized::integration
