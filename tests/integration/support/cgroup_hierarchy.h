#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace resized::integration
{

// The cgroup hierarchy mounted at /sys/fs/cgroup, for the tests that run on
// both: the host's v1 controllers (one hierarchy each) and the VM guest's
// unified v2 hierarchy. cgroupPath is what Podman reports as
// State.CgroupPath or a pod's CgroupPath.

// Whether /sys/fs/cgroup is the unified (v2) hierarchy.
bool unifiedCgroupHierarchy();

// The folder of cgroupPath holding the files of v1Controller:
// /sys/fs/cgroup/<v1Controller>/<cgroupPath> on v1, /sys/fs/cgroup/<cgroupPath>
// on v2, where every controller's files are in one folder.
std::filesystem::path cgroupFolder(const std::filesystem::path& cgroupPath,
                                   std::string_view v1Controller);

// A cgroup file's content without the trailing newline; throws
// std::runtime_error when it cannot be read.
std::string readCgroupFile(const std::filesystem::path& file);

// The CPUs the processes of cgroupPath may run on, in the kernel's list
// format: cpuset.cpus on v1, cpuset.cpus.effective on v2 (where an empty
// cpuset.cpus means the parent's CPUs).
std::string cpusOf(const std::filesystem::path& cgroupPath);

// cgroup v2's cpu.max of cgroupPath, in microseconds; no quota for "max".
struct CpuMax
{
    std::optional<std::uint64_t> quotaUs;
    std::uint64_t periodUs = 0;
};
CpuMax readCpuMax(const std::filesystem::path& cgroupPath);

// cgroup v2's memory.max of cgroupPath in bytes; nullopt for "max".
std::optional<std::uint64_t> readMemoryMax(const std::filesystem::path& cgroupPath);

} // namespace resized::integration
