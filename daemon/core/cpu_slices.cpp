#include "core/cpu_slices.h"

#include <algorithm>
#include <cstddef>
#include <functional>
#include <iterator>
#include <limits>
#include <map>
#include <stdexcept>
#include <tuple>
#include <utility>
#include <vector>

namespace resized::core {
namespace {

enum class Level { NumaNode, Socket };

// NUMA nodes and sockets nest one in the other, whichever way a machine has
// them; the outer level is the larger unit.
struct Levels {
    Level outer;
    Level inner;
};

// As kubelet: with at least as many sockets as NUMA nodes, a node holds
// whole sockets (or is one); otherwise a socket holds several nodes.
Levels levelsOf(const CpuTopology& topology)
{
    if (topology.socketCount() >= topology.numaNodeCount())
        return {Level::NumaNode, Level::Socket};
    return {Level::Socket, Level::NumaNode};
}

unsigned unitOf(const CpuTopology& topology, Level level, unsigned cpu)
{
    const auto& location = topology.locationOf(cpu);
    return level == Level::NumaNode ? location.numaNode : location.socket;
}

// All CPUs of the NUMA node or socket `cpu` is on.
CpuSet unitAround(const CpuTopology& topology, Level level, unsigned cpu)
{
    const unsigned unit = unitOf(topology, level, cpu);
    return level == Level::NumaNode ? topology.cpusOfNumaNode(unit) : topology.cpusOfSocket(unit);
}

// All CPUs of the groups (units, cores) that `groupOf` puts any of `cpus` in.
CpuSet widened(const CpuSet& cpus, const std::function<CpuSet(unsigned)>& groupOf)
{
    CpuSet wide;
    for (const unsigned cpu : cpus)
        if (!wide.contains(cpu))
            wide.merge(groupOf(cpu));
    return wide;
}

// The CPUs of `cpus` whose cores are in `cpus` with all their threads.
CpuSet wholeCoresIn(const CpuTopology& topology, const CpuSet& cpus)
{
    CpuSet whole;
    for (const unsigned cpu : cpus)
        if (isSubset(topology.threadSiblingsOf(cpu), cpus))
            whole.insert(cpu);
    return whole;
}

enum class Ties { LowerIdsFirst, HigherIdsFirst };

// `cpus` ordered by how crowded their places are with CPUs of `counted`:
// first by the count in their outer unit, then the unit, then the count in
// their inner unit, the unit, the count in their core, the core, the CPU;
// fewest first. With `counted` the free CPUs this is kubelet's packing
// order: the fullest places are used up first and a core's threads come
// together.
std::vector<unsigned> orderedByCrowding(const CpuTopology& topology, const CpuSet& cpus, const CpuSet& counted,
                                        Ties ties)
{
    const auto levels = levelsOf(topology);
    std::map<unsigned, std::size_t> outerCounts;
    std::map<unsigned, std::size_t> innerCounts;
    std::map<PhysicalCore, std::size_t> coreCounts;
    for (const unsigned cpu : counted) {
        ++outerCounts[unitOf(topology, levels.outer, cpu)];
        ++innerCounts[unitOf(topology, levels.inner, cpu)];
        ++coreCounts[topology.coreOf(cpu)];
    }

    // Ids counted down from the largest value sort the other way round.
    const auto idRank = [ties](unsigned id) {
        return ties == Ties::LowerIdsFirst ? id : std::numeric_limits<unsigned>::max() - id;
    };
    using Rank = std::tuple<std::size_t, unsigned, std::size_t, unsigned, std::size_t, unsigned, unsigned, unsigned>;
    std::vector<std::pair<Rank, unsigned>> ranked;
    for (const unsigned cpu : cpus) {
        const unsigned outer = unitOf(topology, levels.outer, cpu);
        const unsigned inner = unitOf(topology, levels.inner, cpu);
        const auto core = topology.coreOf(cpu);
        ranked.emplace_back(Rank{outerCounts[outer], idRank(outer), innerCounts[inner], idRank(inner),
                                 coreCounts[core], idRank(core.socket), idRank(core.coreId), idRank(cpu)},
                            cpu);
    }
    std::sort(ranked.begin(), ranked.end());

    std::vector<unsigned> ordered;
    for (const auto& entry : ranked)
        ordered.push_back(entry.second);
    return ordered;
}

// kubelet's takeByTopologyNUMAPacked: `count` CPUs out of `available`, which
// must hold at least as many.
class Packing {
public:
    Packing(const CpuTopology& topology, CpuSet available, std::size_t count)
        : topology_(topology), available_(std::move(available)), count_(count)
    {
    }

    CpuSet take()
    {
        const auto levels = levelsOf(topology_);
        takeWholeGroups([this, &levels](unsigned cpu) { return unitAround(topology_, levels.outer, cpu); });
        takeWholeGroups([this, &levels](unsigned cpu) { return unitAround(topology_, levels.inner, cpu); });
        takeWholeGroups([this](unsigned cpu) { return topology_.threadSiblingsOf(cpu); });
        for (const unsigned cpu : packingOrder())
            if (taken_.size() < count_)
                claim({cpu});
        return taken_;
    }

private:
    std::vector<unsigned> packingOrder() const
    {
        return orderedByCrowding(topology_, available_, available_, Ties::LowerIdsFirst);
    }

    // Each group, in packing order, that is free with all its CPUs and no
    // larger than what is still needed. The order is fixed before taking,
    // as kubelet does.
    void takeWholeGroups(const std::function<CpuSet(unsigned)>& groupOf)
    {
        for (const unsigned cpu : packingOrder()) {
            const auto group = groupOf(cpu);
            if (isSubset(group, available_) && taken_.size() + group.size() <= count_)
                claim(group);
        }
    }

    void claim(const CpuSet& cpus)
    {
        taken_.insert(cpus.begin(), cpus.end());
        available_ = difference(available_, cpus);
    }

    const CpuTopology& topology_;
    CpuSet available_;
    std::size_t count_;
    CpuSet taken_;
};

// `count` CPUs of `free` (at least as many) added to `slice`, nearest
// first: each neighbourhood in turn gives what it has, packed.
CpuSet grow(const CpuTopology& topology, const CpuSet& slice, CpuSet free, std::size_t count)
{
    const auto levels = levelsOf(topology);
    const auto unitsOfSlice = [&topology, &slice](Level level) {
        return widened(slice, [&topology, level](unsigned cpu) { return unitAround(topology, level, cpu); });
    };
    const CpuSet neighbourhoods[] = {
        widened(slice, [&topology](unsigned cpu) { return topology.threadSiblingsOf(cpu); }),
        unitsOfSlice(levels.inner),
        unitsOfSlice(levels.outer),
        topology.cpus(),
    };

    CpuSet added;
    for (const auto& neighbourhood : neighbourhoods) {
        const auto near = intersection(free, neighbourhood);
        const auto taken = Packing(topology, near, std::min(count - added.size(), near.size())).take();
        added.insert(taken.begin(), taken.end());
        if (added.size() == count)
            break;
        free = difference(free, taken);
    }
    return added;
}

// The first `count` CPUs of `releasable` a shrinking `slice` gives back.
CpuSet release(const CpuTopology& topology, const CpuSet& slice, const CpuSet& releasable, std::size_t count)
{
    const auto order = orderedByCrowding(topology, releasable, slice, Ties::HigherIdsFirst);
    return CpuSet(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(count));
}

std::string countOf(std::size_t count, const std::string& noun)
{
    return std::to_string(count) + ' ' + noun + (count == 1 ? "" : "s");
}

std::string isOrAre(std::size_t count)
{
    return std::to_string(count) + (count == 1 ? " is" : " are");
}

SliceChoice refused(std::string reason)
{
    return {std::nullopt, std::move(reason)};
}

SliceChoice growSlice(const CpuTopology& topology, const CpuSet& slice, const CpuSet& free, std::size_t count,
                      const SliceOptions& options)
{
    const auto more = count - slice.size();
    const auto asked = countOf(more, slice.empty() ? "exclusive CPU" : "more exclusive CPU");
    auto usable = difference(intersection(free, topology.cpus()), slice);
    if (options.fullPhysicalCpusOnly) {
        usable = wholeCoresIn(topology, usable);
        const auto threads = topology.threadsPerCore();
        if (more > usable.size())
            return refused("FullPhysicalCpusOnly: " + asked + " need " + countOf(more / threads, "whole free core") +
                           ", " + isOrAre(usable.size() / threads) + " free");
    }
    if (more > usable.size())
        return refused("asked " + asked + ", " + isOrAre(usable.size()) + " free");
    auto grown = grow(topology, slice, usable, more);
    grown.insert(slice.begin(), slice.end());
    return {std::move(grown), {}};
}

SliceChoice shrinkSlice(const CpuTopology& topology, const Slice& slice, std::size_t count,
                        const SliceOptions& options)
{
    if (count < slice.granted.size())
        return refused("asked " + countOf(count, "exclusive CPU") + ", below the " +
                       std::to_string(slice.granted.size()) + " first granted (" + formatCpuSet(slice.granted) + ")");
    const auto fewer = slice.cpus.size() - count;
    auto releasable = difference(slice.cpus, slice.granted);
    if (options.fullPhysicalCpusOnly) {
        releasable = wholeCoresIn(topology, releasable);
        const auto threads = topology.threadsPerCore();
        if (fewer > releasable.size())
            return refused("FullPhysicalCpusOnly: giving back " + countOf(fewer, "CPU") + " needs " +
                           countOf(fewer / threads, "whole core") + " beyond the first granted, the slice holds " +
                           std::to_string(releasable.size() / threads));
    }
    return {difference(slice.cpus, release(topology, slice.cpus, releasable, fewer)), {}};
}

}  // namespace

SliceChoice chooseSlice(const CpuTopology& topology, const CpuSet& free, unsigned count,
                        const SliceOptions& options)
{
    return resizeSlice(topology, Slice{}, free, count, options);
}

SliceChoice resizeSlice(const CpuTopology& topology, const Slice& slice, const CpuSet& free, unsigned count,
                        const SliceOptions& options)
{
    if (!isSubset(slice.granted, slice.cpus))
        throw std::invalid_argument("the slice " + formatCpuSet(slice.cpus) + " does not hold its granted CPUs " +
                                    formatCpuSet(slice.granted));
    if (count == slice.cpus.size())
        return {slice.cpus, {}};
    if (options.fullPhysicalCpusOnly) {
        const auto threads = topology.threadsPerCore();
        if (count % threads != 0)
            return refused("FullPhysicalCpusOnly: " + std::to_string(count) + " is not a multiple of " +
                           countOf(threads, "thread") + " per core");
        if (slice.cpus.size() % threads != 0)
            return refused("FullPhysicalCpusOnly: the slice holds " + countOf(slice.cpus.size(), "CPU") +
                           ", not whole cores of " + countOf(threads, "thread"));
    }
    if (count > slice.cpus.size())
        return growSlice(topology, slice.cpus, free, count, options);
    return shrinkSlice(topology, slice, count, options);
}

}  // namespace resized::core
