#pragma once

#include <compare>
#include <cstddef>
#include <map>
#include <set>

#include "core/cpuset.h"

namespace resized::core {

// Where one online logical CPU sits, as sysfs numbers it.
struct CpuLocation {
    unsigned socket = 0;    // physical_package_id
    unsigned coreId = 0;    // core_id: unique within its socket only
    unsigned numaNode = 0;

    bool operator==(const CpuLocation&) const = default;
};

// A physical core. The kernel numbers cores per socket (both sockets of a
// dual-socket machine have a core 0), so a core is named by both numbers.
struct PhysicalCore {
    unsigned socket = 0;
    unsigned coreId = 0;

    auto operator<=>(const PhysicalCore&) const = default;
};

// The online CPUs of a machine and how they group into cores, sockets and
// NUMA nodes: what the CPU manager packs exclusive slices by. A value: built
// once from sysfs (or by a test), never changed.
class CpuTopology {
public:
    CpuTopology() = default;
    explicit CpuTopology(std::map<unsigned, CpuLocation> locations);

    const CpuSet& cpus() const { return cpus_; }
    // Throws std::out_of_range for a CPU that is not online.
    const CpuLocation& locationOf(unsigned cpu) const;
    PhysicalCore coreOf(unsigned cpu) const;

    // Empty for a node, socket or core the machine does not have.
    CpuSet cpusOfNumaNode(unsigned node) const;
    CpuSet cpusOfSocket(unsigned socket) const;
    CpuSet cpusOfCore(PhysicalCore core) const;
    // As the kernel's thread_siblings_list: `cpu` and the other threads of
    // its core. Throws std::out_of_range for a CPU that is not online.
    CpuSet threadSiblingsOf(unsigned cpu) const;

    std::set<unsigned> numaNodes() const;
    std::set<unsigned> sockets() const;
    std::set<PhysicalCore> cores() const;
    std::size_t numaNodeCount() const { return cpusByNumaNode_.size(); }
    std::size_t socketCount() const { return cpusBySocket_.size(); }

    // The most threads any core has online (1 without SMT): what a slice of
    // whole cores must be a multiple of. Cores with a thread offline have
    // fewer.
    unsigned threadsPerCore() const;

    // The NUMA nodes holding at least one of `cpus`: a slice's cpuset.mems
    // (formatCpuSet writes it, as node lists share the CPU list syntax).
    // CPUs that are not online are ignored.
    std::set<unsigned> numaNodesOf(const CpuSet& cpus) const;

private:
    std::map<unsigned, CpuLocation> locations_;
    CpuSet cpus_;
    std::map<unsigned, CpuSet> cpusByNumaNode_;
    std::map<unsigned, CpuSet> cpusBySocket_;
    std::map<PhysicalCore, CpuSet> cpusByCore_;
};

}  // namespace resized::core
