#pragma once

#include <filesystem>
#include <mutex>
#include <set>
#include <string>

#include "cgroup/cgroup_files.h"
#include "cgroup/limits_backend.h"

namespace resized::cgroup {

// Limits in the legacy hierarchies mounted at <root>/cpu, <root>/memory and
// <root>/cpuset, expressed in v2 terms: a CPU weight becomes cpu.shares and
// memory.high becomes the soft limit.
class CgroupfsV1Backend final : public LimitsBackend {
public:
    explicit CgroupfsV1Backend(std::filesystem::path root);

    std::string_view driverName() const override { return "cgroupfs-v1"; }
    bool exists(const std::string& cgroup) const override;
    core::Resources read(const std::string& cgroup) const override;
    void write(const std::string& cgroup, const core::Resources& limits) override;
    UnreportedLimits readUnreported(const std::string& cgroup) const override;
    void restoreUnreported(const std::string& cgroup, const UnreportedLimits& saved) override;
    uint64_t memoryUsage(const std::string& cgroup) const override;
    UsageFiles openUsage(const std::string& cgroup) const override;
    // v1 has no way to ask for reclaim (memory.force_empty drops everything).
    void reclaim(const std::string& cgroup, uint64_t bytes) override;
    core::CpuSet parentCpus(const std::string& cgroup) const override;
    core::CpuSet parentMemoryNodes(const std::string& cgroup) const override;
    std::vector<std::string> childCgroups(const std::string& cgroup) const override;

private:
    // Whether this machine mounts `controller`: one it lacks holds no cgroup.
    bool mounted(std::string_view controller) const;
    // The limits in `file` of `controller`'s `directory`; nullopt when the
    // file is missing, which it may be only when the controller is not
    // mounted (or its kernel lacks the file): a cgroup missing from a
    // mounted one is gone, and throws CgroupError (ENOENT).
    std::optional<std::string> readIfPresent(std::string_view controller, const std::filesystem::path& directory,
                                             std::string_view file) const;
    std::filesystem::path directory(std::string_view controller, const std::string& cgroup) const;
    // What the parent offers of cpuset `list` ("cpus" or "mems").
    core::CpuSet parentList(const std::string& cgroup, std::string_view list) const;
    void writeCpuMillis(const std::filesystem::path& cpuDirectory, uint64_t millis);
    void writeMemoryMax(const std::filesystem::path& memoryDirectory, uint64_t bytes);

    std::filesystem::path root_;
    // The controllers found mounted, looked at once: the legacy
    // hierarchies are mounted at boot and stay.
    mutable std::mutex mountedMutex_;
    mutable std::set<std::string, std::less<>> mounted_;
    // What read() and the parents' cpusets read: nine files a cgroup.
    mutable HeldFiles held_{kHeldLimitFiles};
};

// systemd's mapping between cgroup v2 weights and v1 shares (100 ↔ 1024).
uint64_t sharesForWeight(uint64_t weight);
uint64_t weightForShares(uint64_t shares);

}  // namespace resized::cgroup
