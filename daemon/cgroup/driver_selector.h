#pragma once

#include <filesystem>
#include <memory>
#include <string>

#include "cgroup/limits_backend.h"

namespace resized::cgroup {

// [Cgroup] Driver= of resized.conf.
enum class DriverChoice { Auto, Systemd, Cgroupfs };

// Picks the writer for each cgroup. With Auto, the cgroup of a systemd unit
// (a container under cgroup_manager=systemd) is changed through systemd where
// systemd runs the tree — a direct write would be undone on daemon-reload —
// and every other cgroup through cgroupfs. Systemd and Cgroupfs force one.
class DriverSelector {
public:
    DriverSelector(std::filesystem::path root, DriverChoice choice);
    ~DriverSelector();

    LimitsBackend& forCgroup(const std::string& cgroup);
    const std::filesystem::path& root() const { return root_; }

private:
    std::filesystem::path root_;
    DriverChoice choice_;
    bool systemdRunsTree_;
    std::unique_ptr<LimitsBackend> cgroupfs_;
    // Made on first use: it talks to systemd.
    std::unique_ptr<LimitsBackend> systemd_;
};

}  // namespace resized::cgroup
