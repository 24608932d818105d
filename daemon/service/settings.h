#pragma once

#include <chrono>
#include <filesystem>
#include <string>

#include "cgroup/driver_selector.h"
#include "core/admission.h"
#include "core/cpu_assignment.h"

namespace resized::service {

// Everything the daemon can be told, with the built-in defaults; filled from
// the command line and resized.conf(5).
struct Settings {
    std::filesystem::path stateDir = "/var/lib/resized";
    // Where pools are declared, one NAME.conf each; empty: pools.d beside
    // the configuration file.
    std::filesystem::path poolDirectory;
    std::string podmanSocket = "/run/podman/podman.sock";
    std::filesystem::path cgroupRoot = "/sys/fs/cgroup";

    // Kept out of the allocatable capacity for the system itself.
    core::Amounts systemReserve{.cpuMillis = 0, .memory = 256ull << 20};
    std::chrono::seconds syncInterval{30};
    unsigned retryAttempts = 3;
    std::chrono::milliseconds retryInterval{5000};
    // Members of this group (and root) may change limits.
    std::string adminGroup = "resized";
    cgroup::DriverChoice cgroupDriver = cgroup::DriverChoice::Auto;
    std::chrono::microseconds defaultReclaimTimeout = std::chrono::seconds(5);
    size_t historyLimit = 10'000;
    // How long a removed container's allocation is kept for a re-creation
    // under the same name (Quadlet, podman run --replace).
    std::chrono::milliseconds removedGrace = std::chrono::minutes(5);
    // [CpuManager]: read at start-up only, like the paths.
    core::CpuManagerSettings cpuManager{};
};

}  // namespace resized::service
