#pragma once

#include <filesystem>

#include "cgroup/cgroup_files.h"
#include "cgroup/limits_backend.h"

namespace resized::cgroup {

// Limits in the files of the unified hierarchy: cpu.max, memory.max,
// memory.high, cpu.weight, cpuset.cpus.
class CgroupfsV2Backend final : public LimitsBackend {
public:
    explicit CgroupfsV2Backend(std::filesystem::path root);

    std::string_view driverName() const override { return "cgroupfs-v2"; }
    bool exists(const std::string& cgroup) const override;
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
    std::filesystem::path directory(const std::string& cgroup) const;

    std::filesystem::path root_;
    // What read() reads: six files a cgroup.
    mutable HeldFiles held_{kHeldLimitFiles};
};

}  // namespace resized::cgroup
