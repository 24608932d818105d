#pragma once

#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include <systemd/sd-bus.h>

#include "cgroup/cgroupfs_v2.h"
#include "cgroup/limits_backend.h"

namespace resized::cgroup {

// The systemd unit whose cgroup `cgroup` is ("/machine.slice/libpod-<id>.scope"
// → "libpod-<id>.scope"): the last path component, if it is a valid name of a
// scope or service unit. nullopt for anything else, such as the cgroups
// Podman makes itself under cgroup_manager=cgroupfs.
std::optional<std::string> systemdUnitOfCgroup(std::string_view cgroup);

// Whether `cgroup` belongs to a systemd unit and must be changed through
// systemd: systemd rewrites the cgroup files of its units from the unit's
// properties (on daemon-reload, for one), so a direct write would not last.
inline bool isSystemdUnitCgroup(std::string_view cgroup)
{
    return systemdUnitOfCgroup(cgroup).has_value();
}

// Limits of cgroups that are systemd units (cgroup v2 only). Writes go
// through systemd's SetUnitProperties(runtime=true), so systemd applies them
// and keeps them until the unit goes away; reads come from the cgroup files
// as for any v2 cgroup, because those are what the kernel enforces.
class SystemdBackend final : public LimitsBackend {
public:
    // How long one call to systemd may take: it answers within milliseconds
    // unless it is hung.
    static constexpr std::chrono::microseconds kCallTimeout = std::chrono::seconds(10);

    explicit SystemdBackend(std::filesystem::path root);

    std::string_view driverName() const override { return "systemd"; }
    bool exists(const std::string& cgroup) const override;
    bool waitsForPeer() const override { return true; }
    core::Resources read(const std::string& cgroup) const override;
    void write(const std::string& cgroup, const core::Resources& limits) override;
    uint64_t memoryUsage(const std::string& cgroup) const override;
    UsageFiles openUsage(const std::string& cgroup) const override;
    std::optional<FileDescriptor> armPressureTrigger(const std::string& cgroup, PressureResource resource,
                                                     std::chrono::microseconds threshold,
                                                     std::chrono::microseconds window) const override;
    void reclaim(const std::string& cgroup, uint64_t bytes) override;
    core::CpuSet parentCpus(const std::string& cgroup) const override;
    core::CpuSet parentMemoryNodes(const std::string& cgroup) const override;
    std::vector<std::string> childCgroups(const std::string& cgroup) const override;

private:
    struct BusUnref {
        void operator()(sd_bus* bus) const { sd_bus_flush_close_unref(bus); }
    };

    // The system bus, (re)connected when it is not open: dbus-daemon may
    // have restarted since the last write.
    sd_bus* systemBus();
    // What to send as AllowedCPUs (AllowedMemoryNodes) for `allowed`: the
    // empty set ("all") as all that the parent offers.
    static core::CpuSet orAllOffered(const core::CpuSet& allowed,
                                     const std::function<core::CpuSet()>& offeredByParent);

    std::filesystem::path root_;
    // An sd-bus connection serves one thread at a time: writes come from a
    // worker thread, and a crash recovery's or a failed commit's restore
    // from the loop.
    std::mutex busMutex_;
    std::unique_ptr<sd_bus, BusUnref> bus_;
    CgroupfsV2Backend files_;
};

std::unique_ptr<LimitsBackend> makeSystemdBackend(std::filesystem::path root);

// Whether systemd runs this machine's cgroup tree: it is PID 1 and `root`
// is a cgroup v2 hierarchy (the systemd backend does not know v1). Where it
// does, Podman's default cgroup manager is systemd, so its containers are
// units.
bool systemdManagesCgroups(const std::filesystem::path& root);

}  // namespace resized::cgroup
