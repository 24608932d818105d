#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "cgroup/cgroup_files.h"
#include "core/cpuset.h"
#include "core/resources.h"

namespace resized::cgroup {

// A write or read of a cgroup file failed; what() names the file and errno.
class CgroupError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
    CgroupError(const std::string& what, int error) : std::runtime_error(what), error_(error) {}

    // The errno of the failed call, 0 when it was not a system call that failed
    // (a malformed value, a path refused). The applier tells a kernel that
    // cannot reclaim (EBUSY) from other failures by it.
    int error() const noexcept { return error_; }

private:
    int error_ = 0;
};

// Limits read() does not report that a write() can move: cgroup v1 pulls
// memory.memsw.limit_in_bytes up with a raised memory.limit_in_bytes. The
// applier saves them before its first write and puts them back after it
// restored a failed update's limits.
struct UnreportedLimits {
    std::optional<uint64_t> memorySwapMax{};  // v1 memory.memsw.limit_in_bytes

    bool operator==(const UnreportedLimits&) const = default;
};

// Time a cgroup's tasks stalled for want of a resource, in µs, from its
// pressure file (PSI): "some" while at least one waited, "full" while all did.
struct PressureStall {
    uint64_t someUsec = 0;
    uint64_t fullUsec = 0;
};

// What a cgroup's processes use, as the kernel counts it.
struct Usage {
    uint64_t cpuNsec = 0;           // v1 cpuacct.usage, v2 cpu.stat usage_usec
    uint64_t throttledPeriods = 0;  // cpu.stat nr_throttled
    uint64_t memoryBytes = 0;       // v1 memory.usage_in_bytes, v2 memory.current
    uint64_t inactiveFileBytes = 0; // memory.stat (v1 total_inactive_file)
    uint64_t oomKills = 0;          // v1 memory.oom_control, v2 memory.events
    // v2 cpu.pressure and memory.pressure; none where the kernel has no PSI
    // per cgroup (v1, a kernel built or booted without it).
    std::optional<PressureStall> cpuPressure;
    std::optional<PressureStall> memoryPressure;

    // The kubelet's working set: the memory the kernel cannot drop at once.
    uint64_t workingSetBytes() const { return memoryBytes > inactiveFileBytes ? memoryBytes - inactiveFileBytes : 0; }
};

class UsageFiles;

// The resource a pressure file tells the stalls of.
enum class PressureResource { Cpu, Memory };

// Reads and writes the limits of one cgroup. A cgroup is named by its path
// relative to the cgroup root ("/libpod_parent/libpod-<id>"), exactly as the
// runtime reports it; implementations refuse a path that leaves the root.
class LimitsBackend {
public:
    virtual ~LimitsBackend() = default;

    // "cgroupfs-v1", "cgroupfs-v2" or "systemd": the Driver of the status.
    virtual std::string_view driverName() const = 0;
    // Whether the cgroup is there: a container's goes when it stops, and a
    // container created again gets another.
    virtual bool exists(const std::string& cgroup) const = 0;
    // Its writes wait for another process to answer (systemd): they are
    // made off the event loop, and the backend must take calls from another
    // thread than its reads.
    virtual bool waitsForPeer() const { return false; }

    // Every limit the cgroup files hold; "no limit" reads as kUnlimited, an
    // unrestricted cpuset as the empty string only when it equals the
    // parent's.
    virtual core::Resources read(const std::string& cgroup) const = 0;

    // Writes the keys `limits` names, in the order given by the caller (the
    // applier orders decreases before increases). Throws CgroupError.
    virtual void write(const std::string& cgroup, const core::Resources& limits) = 0;

    // Nothing where a write moves only what it names.
    virtual UnreportedLimits readUnreported(const std::string&) const { return {}; }
    // Writes back what readUnreported() saved, after the limits themselves.
    virtual void restoreUnreported(const std::string&, const UnreportedLimits&) {}

    virtual uint64_t memoryUsage(const std::string& cgroup) const = 0;
    // The cgroup's counter files, open for reading again and again.
    // Counters the kernel has no file for (an older v1 kernel's oom_kill)
    // read as 0.
    virtual UsageFiles openUsage(const std::string& cgroup) const = 0;
    // Once: opens the counter files and reads them.
    Usage usage(const std::string& cgroup) const;

    // A PSI trigger on the cgroup's cpu.pressure or memory.pressure
    // (Documentation/accounting/psi.rst): the descriptor polls POLLPRI once
    // some task stalled `threshold` within a sliding `window` (500 ms to
    // 10 s), at most once a window, and POLLERR when the cgroup goes.
    // nullopt where cgroups have no pressure (v1, PSI off). Throws
    // CgroupError.
    virtual std::optional<FileDescriptor> armPressureTrigger(const std::string&, PressureResource,
                                                             std::chrono::microseconds /*threshold*/,
                                                             std::chrono::microseconds /*window*/) const
    {
        return std::nullopt;
    }

    // Asks the kernel to reclaim `bytes` now (v2 memory.reclaim); a no-op
    // where the kernel has no such knob.
    virtual void reclaim(const std::string& cgroup, uint64_t bytes) = 0;

    // The CPUs the parent cgroup lets its children use.
    virtual core::CpuSet parentCpus(const std::string& cgroup) const = 0;
    // The NUMA nodes whose memory it lets them use.
    virtual core::CpuSet parentMemoryNodes(const std::string& cgroup) const = 0;
    // The cgroups directly inside `cgroup`, named as `cgroup` is, in the
    // hierarchy that holds its cpuset: a child's cpuset must fit inside its
    // parent's there (v1), so a parent narrowed takes its children along.
    virtual std::vector<std::string> childCgroups(const std::string& cgroup) const = 0;
};

// `limits` as the backend would read them back: a cpuset (CPUs or memory
// nodes) equal to the parent's reads as empty (unrestricted). Compare wanted
// values through this.
inline core::Resources asBackendReads(const LimitsBackend& backend, const std::string& cgroup,
                                      core::Resources limits)
{
    if (limits.allowedCpus && *limits.allowedCpus == backend.parentCpus(cgroup))
        limits.allowedCpus = core::CpuSet{};
    if (limits.memoryNodes && *limits.memoryNodes == backend.parentMemoryNodes(cgroup))
        limits.memoryNodes = core::CpuSet{};
    return limits;
}

}  // namespace resized::cgroup
