#pragma once

#include "container_limits.h"
#include "resized_bus.h"

#include "support/daemon_process.h"
#include "support/integration_test.h"
#include "support/podman_cli.h"

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace resized::integration::events
{

// Every test runs a resized of its own, with fresh state, on the private bus
// of with-testenv.sh. The periodic sync is pushed out of reach, so whatever
// puts limits back after a container changed is the event stream (or the
// resynchronisation of a (re)connection), never the timer.
class EventsTest : public IntegrationTest
{
  protected:
    // Bounds a wait for the daemon to react to a container event; it only
    // keeps a broken daemon from hanging the test, and leaves room for the
    // VM tier's emulated guest, many times slower than the host.
    static constexpr auto reactionTimeout = std::chrono::seconds(60);
    static constexpr auto pollInterval = std::chrono::milliseconds(20);

    // What the tests ask for; containers start without limits (or with
    // smaller create-time ones), so a restart visibly loses these.
    static constexpr Limits desired{.cpuMillis = 600, .memoryMax = 300 * mebibyte};

    void SetUp() override;
    void TearDown() override;

    // Starts the daemon with this test's state (again, after stopDaemon()).
    void startDaemon();
    // SIGTERM and wait; the daemon's status must be 0.
    void stopDaemon();
    DaemonOptions& daemonOptions() { return daemonOptions_; }
    // The daemon startDaemon() started; throws when there is none.
    DaemonProcess& daemon() { return daemon_.value(); }
    ResizedBus& bus() { return *bus_; }
    const PodmanCli& podman() const { return *podman_; }

    // A name of this test's own for a container or pod.
    std::string nameFor(const std::string& suffix) const;
    ScopedContainer runContainer(const std::string& suffix,
                                 const std::vector<std::string>& podmanArguments = {});

    // Runs podman; throws std::runtime_error with its error output when it
    // fails.
    void podmanOrThrow(const std::vector<std::string>& arguments) const;

    // Polls the cgroup files until they hold limits; false (the last reading
    // is printed) after reactionTimeout.
    static bool waitForLimits(const std::filesystem::path& cgroupPath,
                              const Limits& limits);
    // Polls until the status of workload says synchronized.
    bool waitForSynchronized(const std::string& workload);
    // Polls until CpuAllocatedMillis reads millis.
    bool waitForCpuAllocated(std::uint64_t millis);
    // Polls until RuntimeConnected reads connected; timeout covers the
    // reconnection backoff.
    bool waitForRuntimeConnected(bool connected, std::chrono::milliseconds timeout);

    // The full ID of the container now named name, as Podman reports it.
    std::string containerIdOf(const std::string& name) const;

    // The desired limits are in container's cgroup files and the daemon says
    // so: synchronized, bound to the container now holding its name.
    void expectDesiredLimitsOn(const ScopedContainer& container);

    // Prints (and records in the test's XML) how long something took since
    // `since`; for information, never asserted.
    void reportDuration(const std::string& what,
                        std::chrono::steady_clock::time_point since);

  private:
    std::optional<PodmanCli> podman_;
    DaemonOptions daemonOptions_;
    std::optional<DaemonProcess> daemon_;
    std::optional<ResizedBus> bus_;
};

} // namespace resized::integration::events
