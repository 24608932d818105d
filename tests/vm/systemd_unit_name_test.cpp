#include <gtest/gtest.h>

#include <string>

#include "cgroup/systemd_backend.h"

// What the systemd backend accepts as a unit, and what it refuses before it
// would call systemd: runs on any host.
namespace resized::cgroup {
namespace {

const std::string kContainerId(64, 'a');

TEST(SystemdUnitOfCgroup, IsTheLastComponentWhenItNamesAScopeOrService)
{
    EXPECT_EQ(systemdUnitOfCgroup("/machine.slice/libpod-" + kContainerId + ".scope"),
              "libpod-" + kContainerId + ".scope");
    EXPECT_EQ(systemdUnitOfCgroup("/system.slice/podman.service"), "podman.service");
    // A slice is a unit too: `unit:machine.slice`, and a pod's own cgroup
    // under cgroup_manager=systemd.
    EXPECT_EQ(systemdUnitOfCgroup("/machine.slice"), "machine.slice");
    EXPECT_EQ(systemdUnitOfCgroup("/system.slice/system-getty.slice/getty@tty1.service"), "getty@tty1.service");
    EXPECT_EQ(systemdUnitOfCgroup("/user.slice/a\\x2db:c_d.scope"), "a\\x2db:c_d.scope");
}

TEST(SystemdUnitOfCgroup, UndoesSystemdsCgroupEscaping)
{
    // systemd names the cgroup of "cpu.service" "_cpu.service".
    EXPECT_EQ(systemdUnitOfCgroup("/system.slice/_cpu.service"), "cpu.service");
}

TEST(SystemdUnitOfCgroup, IsNothingForOtherCgroups)
{
    for (const std::string& cgroup : {"/libpod_parent/libpod-" + kContainerId, std::string("/"), std::string(),
                                     std::string("/x/.slice"), std::string("/x/.scope"),
                                     std::string("/x/foo@.service"), std::string("/x/@foo.service"),
                                     std::string("/x/a@b@c.service"), std::string("/x/a b.scope"),
                                     std::string("/x/a.scope/"), std::string("/x/a.socket"),
                                     std::string("/x/") + std::string(250, 'a') + ".scope"}) {
        EXPECT_EQ(systemdUnitOfCgroup(cgroup), std::nullopt) << cgroup;
        EXPECT_FALSE(isSystemdUnitCgroup(cgroup)) << cgroup;
    }
}

class SystemdBackendRefusal : public ::testing::Test {
protected:
    void expectRefused(const std::string& cgroup)
    {
        const core::Resources limits{.cpuMillis = 500};
        EXPECT_THROW(backend_.write(cgroup, limits), CgroupError) << cgroup;
    }

    SystemdBackend backend_{"/sys/fs/cgroup"};
};

TEST_F(SystemdBackendRefusal, RefusesCgroupsThatAreNotUnits) { expectRefused("/libpod_parent/libpod-" + kContainerId); }

TEST_F(SystemdBackendRefusal, RefusesPathsLeavingTheRoot) { expectRefused("/../system.slice/resized.service"); }

TEST_F(SystemdBackendRefusal, RefusesUnitsWithoutACgroup) { expectRefused("/system.slice/resized-no-such-unit.scope"); }

}  // namespace
}  // namespace resized::cgroup
