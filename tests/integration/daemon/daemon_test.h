#pragma once

#include "cgroup_limits.h"
#include "resized_client.h"
#include "resource_values.h"

#include "support/daemon_process.h"
#include "support/integration_test.h"
#include "support/podman_cli.h"

#include <chrono>
#include <cstdint>
#include <future>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace resized::integration
{

// The CPUs this process may run on: the node's CPUs as the daemon counts them
// (it inherits the test's affinity).
std::set<unsigned> affinityCpus();

// Every test gets a resized of its own on the private bus of with-testenv.sh,
// with fresh state and a configuration with a known system reserve; its
// containers are ScopedContainers of the test, so nothing outlives it.
class DaemonTest : public IntegrationTest
{
  protected:
    static constexpr std::uint64_t reservedCpuMillis = 250;
    static constexpr std::uint64_t reservedMemory = 512 * mebibyte;

    void SetUp() override;
    void TearDown() override;

    // Starts the daemon with this test's state directory (again, after a
    // stop or a kill).
    void startDaemon();
    // What startDaemon() starts the daemon with; a test may change it first.
    DaemonOptions& daemonOptions() { return daemonOptions_; }
    DaemonProcess& daemon() { return *daemon_; }
    ResizedClient& client() { return *client_; }
    const PodmanCli& podman() const { return *podman_; }

    // A running container named after the test (and suffix).
    ScopedContainer runContainer(const std::string& suffix,
                                 const std::vector<std::string>& podmanArguments = {});
    std::string containerName(const std::string& suffix) const;

    // The node's allocatable CPU as the daemon reports it.
    std::uint64_t cpuCapacity() { return client().managerNumber("CpuCapacityMillis"); }

    // Waits until CpuAllocatedMillis is millis; false on timeout.
    bool cpuAllocationReaches(std::uint64_t millis);

    // Asks for request, a memory shrink, from a client of its own and
    // returns once the shrink has begun (the soft limit moved) and waits for
    // reclaim; the future holds the error the call ends with, if any. Throws
    // std::runtime_error when the shrink does not begin.
    std::future<std::optional<sdbus::Error>>
        startMemoryShrink(const ScopedContainer& container, const ResourceValues& request,
                          std::chrono::microseconds reclaimTimeout);

    // `bus_caller ARGUMENTS` run as the unprivileged user nobody; its output is
    // "ok" or the D-Bus error name of the call.
    static std::string callAsNobody(const std::vector<std::string>& arguments);

  private:
    std::optional<PodmanCli> podman_;
    DaemonOptions daemonOptions_;
    std::optional<DaemonProcess> daemon_;
    std::optional<ResizedClient> client_;
};

// A container that resized manages from the start of each test, at
// `managed`; so that a test of a call on a managed workload (a refusal that
// must change nothing, a method of its Workload object) starts from it.
class ManagedContainerTest : public DaemonTest
{
  protected:
    static inline const ResourceValues managed{.cpuMillis = 300, .memoryMax = 256 * mebibyte};

    void SetUp() override;
    void TearDown() override;

    const ScopedContainer& container() const { return *container_; }
    const std::string& name() const { return container_->name(); }
    sdbus::ObjectPath workloadPath() const { return sdbus::ObjectPath(workloadPathOf(name())); }

  private:
    std::optional<ScopedContainer> container_;
};

} // namespace resized::integration
