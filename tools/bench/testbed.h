#pragma once

#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "latency_summary.h"
#include "resized_bus.h"
#include "support/daemon_process.h"
#include "support/podman_cli.h"
#include "support/test_environment.h"

namespace resized::bench {

// What every measurement runs against: the private bus and Podman of
// with-testenv.sh, a fixed set of idle containers, and at most one resized.
// Everything it starts goes when it does.
//
// The containers are shared out by index: 0–4 for the latency comparison
// (0 and 1 also for the plans), 0–15 for the throughput clients, 16 for the
// restarts, all 30 for the scale runs. The CPU limits each phase sets add up
// to well under this machine's two CPUs, so admission never refuses a call.
class Testbed {
public:
    static constexpr std::size_t kContainerCount = 30;

    // Creates the containers bench-00 … bench-29, without limits.
    explicit Testbed(integration::TestEnvironment environment);
    ~Testbed();
    Testbed(const Testbed&) = delete;
    Testbed& operator=(const Testbed&) = delete;

    const integration::TestEnvironment& environment() const { return environment_; }
    const integration::PodmanCli& podman() const { return podman_; }

    const std::string& containerName(std::size_t index) const;
    // The cpu.cfs_quota_us resized writes for millis: the kernel's default
    // period of 100 ms, of which millis / 1000 may run.
    static constexpr std::int64_t kCfsPeriodUs = 100'000;
    static constexpr std::int64_t cfsQuotaFor(std::uint64_t millis)
    {
        return static_cast<std::int64_t>(millis) * kCfsPeriodUs / 1000;
    }

    // The container's CFS quota in microseconds (-1: no limit), read from
    // its cgroup; nullopt while the cgroup does not exist (the container is
    // between a stop and a start).
    std::optional<std::int64_t> cpuQuotaUs(std::size_t index) const;

    // A fresh folder for a daemon's state, named after what it is for.
    std::filesystem::path stateDirectory(const std::string& purpose) const;

    // The CPUs the container may run on, as its cgroup's cpuset.cpus lists
    // them ("0-1").
    std::string cpusetOf(std::size_t index) const;

    // Starts resized on stateDirectory and returns how long it took from
    // spawning it to its bus name having an owner. Stops any daemon first.
    // `configuration` is added to the testbed's resized.conf.
    Duration startDaemon(const std::filesystem::path& stateDirectory, const std::string& configuration = {});
    void stopDaemon();
    bool daemonRunning() const { return daemon_.has_value(); }
    pid_t daemonPid() const;

private:
    struct Container;

    integration::TestEnvironment environment_;
    integration::PodmanCli podman_;
    integration::DaemonOptions daemonOptions_;
    std::vector<std::unique_ptr<Container>> containers_;
    BusNameWatcher nameWatcher_;
    std::optional<integration::DaemonProcess> daemon_;
    pid_t daemonPid_ = 0;
};

}  // namespace resized::bench
