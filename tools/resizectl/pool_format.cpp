#include "pool_format.h"

#include <cstdint>

#include "core/quantity.h"
#include "quantity_format.h"
#include "status_format.h"

namespace resized::ctl {

namespace {

using Format = std::string (*)(uint64_t);

// What one resource of a pool is made of, by its property names.
struct PoolResource {
    const char* allocatedKey;
    const char* capacityKey;
    Format format;
};

constexpr PoolResource kCpu{"CpuAllocatedMillis", "CpuCapacityMillis", core::formatCpuMillis};
constexpr PoolResource kMemory{"MemoryAllocated", "MemoryCapacity", formatMemory};

// "-" for a property the daemon did not send.
std::string formatProperty(const Dictionary& properties, const char* key, Format format)
{
    const auto value = find<uint64_t>(properties, key);
    return value ? format(*value) : "-";
}

std::string allocatedSlashCapacity(const Dictionary& properties, const PoolResource& resource)
{
    return formatProperty(properties, resource.allocatedKey, resource.format) + '/' +
           formatProperty(properties, resource.capacityKey, resource.format);
}

// "300m of 500m allocated"; "300m allocated, no cap" rather than "of max".
std::string describeAllocation(const Dictionary& properties, const PoolResource& resource)
{
    const std::string allocated = formatProperty(properties, resource.allocatedKey, resource.format);
    if (find<uint64_t>(properties, resource.capacityKey) == core::kUnlimited)
        return allocated + " allocated, no cap";
    return allocated + " of " + formatProperty(properties, resource.capacityKey, resource.format) + " allocated";
}

std::string joinLines(const std::vector<std::string>& lines)
{
    std::string text;
    for (const auto& line : lines)
        text += (text.empty() ? "" : "\n") + line;
    return text;
}

}  // namespace

Table makePoolTable(const std::vector<ListedPool>& pools)
{
    Table table({"NAME", "CPU", "MEMORY", "MEMBERS"});
    for (const auto& pool : pools)
        table.addRow({lookup<std::string>(pool.properties, "Name"), allocatedSlashCapacity(pool.properties, kCpu),
                      allocatedSlashCapacity(pool.properties, kMemory),
                      std::to_string(lookup<std::vector<std::string>>(pool.properties, "Members").size())});
    return table;
}

std::string formatPoolBlock(const ListedPool& pool)
{
    const auto members = lookup<std::vector<std::string>>(pool.properties, "Members");
    // AllowedDisruptions is left out: without disruption budgets, which the
    // daemon does not take yet, it is always unlimited.
    return formatFieldBlock(lookup<std::string>(pool.properties, "Name"),
                            {{"CPU", describeAllocation(pool.properties, kCpu)},
                             {"Memory", describeAllocation(pool.properties, kMemory)},
                             {"Members", members.empty() ? "none" : joinLines(members)}});
}

}  // namespace resized::ctl
