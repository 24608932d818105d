#include "core/cpu_topology.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

namespace resized::core {
namespace {

template <typename Key>
CpuSet cpusAt(const std::map<Key, CpuSet>& cpusByKey, const Key& key)
{
    const auto found = cpusByKey.find(key);
    return found == cpusByKey.end() ? CpuSet{} : found->second;
}

template <typename Key>
std::set<Key> keysOf(const std::map<Key, CpuSet>& cpusByKey)
{
    std::set<Key> keys;
    for (const auto& entry : cpusByKey)
        keys.insert(entry.first);
    return keys;
}

}  // namespace

CpuTopology::CpuTopology(std::map<unsigned, CpuLocation> locations) : locations_(std::move(locations))
{
    for (const auto& [cpu, location] : locations_) {
        cpus_.insert(cpu);
        cpusByNumaNode_[location.numaNode].insert(cpu);
        cpusBySocket_[location.socket].insert(cpu);
        cpusByCore_[PhysicalCore{location.socket, location.coreId}].insert(cpu);
    }
}

const CpuLocation& CpuTopology::locationOf(unsigned cpu) const
{
    const auto found = locations_.find(cpu);
    if (found == locations_.end())
        throw std::out_of_range("CPU " + std::to_string(cpu) + " is not online");
    return found->second;
}

PhysicalCore CpuTopology::coreOf(unsigned cpu) const
{
    const auto& location = locationOf(cpu);
    return {location.socket, location.coreId};
}

CpuSet CpuTopology::cpusOfNumaNode(unsigned node) const
{
    return cpusAt(cpusByNumaNode_, node);
}

CpuSet CpuTopology::cpusOfSocket(unsigned socket) const
{
    return cpusAt(cpusBySocket_, socket);
}

CpuSet CpuTopology::cpusOfCore(PhysicalCore core) const
{
    return cpusAt(cpusByCore_, core);
}

CpuSet CpuTopology::threadSiblingsOf(unsigned cpu) const
{
    return cpusOfCore(coreOf(cpu));
}

std::set<unsigned> CpuTopology::numaNodes() const
{
    return keysOf(cpusByNumaNode_);
}

std::set<unsigned> CpuTopology::sockets() const
{
    return keysOf(cpusBySocket_);
}

std::set<PhysicalCore> CpuTopology::cores() const
{
    return keysOf(cpusByCore_);
}

unsigned CpuTopology::threadsPerCore() const
{
    std::size_t most = 1;
    for (const auto& entry : cpusByCore_)
        most = std::max(most, entry.second.size());
    return static_cast<unsigned>(most);
}

std::set<unsigned> CpuTopology::numaNodesOf(const CpuSet& cpus) const
{
    std::set<unsigned> nodes;
    for (const unsigned cpu : cpus)
        if (const auto found = locations_.find(cpu); found != locations_.end())
            nodes.insert(found->second.numaNode);
    return nodes;
}

}  // namespace resized::core
