#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "support/command.h"
#include "support/daemon_process.h"
#include "support/integration_test.h"
#include "support/podman_cli.h"

namespace resized::ctl {

// The real resizectl binary against a real resized on the private bus of
// with-testenv.sh, with real containers. Every test gets a daemon of its
// own with fresh state, so desired state never leaks from one test into
// the next.
class ResizectlTest : public integration::IntegrationTest {
protected:
    void SetUp() override;

    static integration::CommandResult resizectl(const std::vector<std::string>& arguments);
    static integration::CommandResult resizectlAsNobody(const std::vector<std::string>& arguments);
    // `resizectl --json ARGUMENTS`, which must succeed.
    static nlohmann::json resizectlJson(const std::vector<std::string>& arguments);

    // A container name unique to the running test.
    static std::string containerName(const std::string& suffix = "");

    const integration::PodmanCli& podman() const { return *podman_; }
    integration::DaemonProcess& daemon() { return *daemon_; }

private:
    std::optional<integration::PodmanCli> podman_;
    std::optional<integration::DaemonProcess> daemon_;
};

// That resizectl exited with `exitStatus`; what it printed when not.
void expectExit(const integration::CommandResult& result, int exitStatus);

// The CPU limit in force, in millicores, from cpu.cfs_quota_us and
// cpu.cfs_period_us; nullopt when there is none (quota -1).
std::optional<uint64_t> cgroupCpuMillis(const integration::ScopedContainer& container);
uint64_t cgroupMemoryLimit(const integration::ScopedContainer& container);

}  // namespace resized::ctl
