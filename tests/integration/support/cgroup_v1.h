#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace resized::integration
{

// A container's cgroup in the host's v1 hierarchies, e.g.
//   CgroupV1(cgroupPath).readNumber("cpu", "cpu.cfs_quota_us")
// where cgroupPath is what `podman inspect --format {{.State.CgroupPath}}`
// reports (/libpod_parent/libpod-<id>).
class CgroupV1
{
  public:
    explicit CgroupV1(std::filesystem::path cgroupPath,
                      std::filesystem::path root = "/sys/fs/cgroup");

    std::filesystem::path file(std::string_view controller,
                               std::string_view name) const;

    // The file's content without the trailing newline.
    std::string read(std::string_view controller, std::string_view name) const;
    std::int64_t readNumber(std::string_view controller,
                            std::string_view name) const;

    // Waits until memory.usage_in_bytes exceeds bytes; false on timeout.
    bool waitForMemoryUsageAbove(std::uint64_t bytes,
                                 std::chrono::milliseconds timeout) const;

  private:
    std::filesystem::path cgroupPath_;
    std::filesystem::path root_;
};

} // namespace resized::integration
