#pragma once

#include "../daemon/cgroup_limits.h"
#include "../daemon/resized_client.h"
#include "../daemon/resource_values.h"

#include "support/daemon_process.h"
#include "support/integration_test.h"
#include "support/podman_cli.h"

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace resized::integration
{

// Generous bounds for what the daemon does in the background (a deferred
// resize, a periodic sync, a retry): they only keep a broken daemon from
// hanging the test.
inline constexpr auto backgroundTimeout = std::chrono::seconds(30);

// Every test gets a folder, a configuration file and a state directory of
// its own; the test writes the configuration it needs and then starts the
// daemon (again, as often as it likes: the state stays). Containers are
// ScopedContainers of the test, so nothing outlives it.
class ReconcileTest : public IntegrationTest
{
  protected:
    void SetUp() override;
    void TearDown() override;

    // The main configuration file; it starts with no system reserve for CPU
    // (the whole node is allocatable) and a periodic sync that stays out of
    // the way.
    const std::filesystem::path& configFile() const { return options_.configFile; }
    void writeConfig(const std::string& text) const;
    // configFile().d/name
    void writeDropIn(const std::string& name, const std::string& text) const;

    // Starts resized with extraEnvironment ("NAME=value") added to its
    // environment, replacing a running one, and waits until it follows
    // Podman's events (see waitForEventStream()).
    void startDaemon(const std::vector<std::string>& extraEnvironment = {});
    // Starts resized pointed at a Podman socket nobody listens on, as when
    // Podman is down at boot.
    void startDaemonWithoutPodman();
    DaemonProcess& daemon() { return *daemon_; }
    const DaemonOptions& daemonOptions() const { return options_; }
    ResizedClient& client() { return *client_; }
    const PodmanCli& podman() const { return *podman_; }

    // A running container named after the test (and suffix).
    ScopedContainer runContainer(const std::string& suffix,
                                 const std::vector<std::string>& podmanArguments = {}) const;
    static std::string containerName(const std::string& suffix);

    static CgroupLimits limitsOf(const ScopedContainer& container);
    // Writes value into one of the container's cgroup files, as somebody
    // other than resized would.
    static void writeBehindTheDaemon(const ScopedContainer& container,
                                     const std::string& controller,
                                     const std::string& file, const std::string& value);
    // The status's SyncState and UpdateState.
    std::string syncStateOf(const std::string& workload);
    std::string updateStateOf(const std::string& workload);

    // Waits until the container's cgroup holds millis as its CPU limit.
    bool waitForCpuMillis(const ScopedContainer& container, std::uint64_t millis);
    bool waitForSyncState(const std::string& workload, const std::string& state);

  private:
    // The daemon reconciles every workload once its event stream opens,
    // which may be well after it took its bus name; a test that makes drift
    // or failures of its own waits for that pass first, so that what it sees
    // is what it caused.
    void waitForEventStream();

    std::optional<PodmanCli> podman_;
    DaemonOptions options_;
    std::optional<DaemonProcess> daemon_;
    std::optional<ResizedClient> client_;
};

// CpuMillis alone, as a resource dictionary.
Dictionary cpuMillis(std::uint64_t millis);

} // namespace resized::integration
