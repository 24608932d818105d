#include "pool_format.h"

#include <chrono>
#include <cstdint>
#include <limits>

#include "budget_argument.h"
#include "core/quantity.h"
#include "quantity_format.h"
#include "status_format.h"
#include "time_format.h"

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

std::string joined(const std::vector<std::string>& words, const char* separator)
{
    std::string text;
    for (const auto& word : words)
        text += (text.empty() ? "" : separator) + word;
    return text;
}

// "30% per 10min for manual, autoscale; schedule \"0 9 * * 1-5\" for 8h
// (Europe/Berlin)": the schedule as written, not read back into words.
std::string describeBudget(const Dictionary& budget)
{
    using namespace budget_key;
    std::string text = lookup<std::string>(budget, kValue, "?");
    const uint64_t period = lookup<uint64_t>(budget, kPeriod);
    // A period of 0 counts only the disruptions in flight.
    text += period == 0 ? " at a time" : " per " + formatTimespan(std::chrono::microseconds(period));
    // Without reasons the budget counts every one.
    if (const auto reasons = lookup<std::vector<std::string>>(budget, kReasons); !reasons.empty())
        text += " for " + joined(reasons, ", ");
    if (const auto schedule = lookup<std::string>(budget, kSchedule); !schedule.empty())
        text += "; schedule \"" + schedule + "\" for " +
                formatTimespan(std::chrono::microseconds(lookup<uint64_t>(budget, kDuration))) + " (" +
                lookup<std::string>(budget, kTimeZone, "UTC") + ")";
    return text;
}

// For reason manual, as `resizectl set` would be counted; UINT32_MAX when
// no budget applies now (outside every window, or none for manual).
std::string describeAllowedDisruptions(const Dictionary& properties)
{
    const auto allowed = find<uint32_t>(properties, "AllowedDisruptions");
    if (!allowed)
        return "-";
    if (*allowed == std::numeric_limits<uint32_t>::max())
        return "no limit now";
    return std::to_string(*allowed) + " now";
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

std::string formatPoolBlock(const ListedPool& pool, const std::set<std::string>& managed)
{
    // A labelled container resized does not manage counts in the pool all
    // the same: listed, and said to be one.
    std::vector<std::string> members;
    for (const auto& member : lookup<std::vector<std::string>>(pool.properties, "Members"))
        members.push_back(managed.contains(member) ? member : member + " (unmanaged)");
    std::vector<StatusField> fields{{"CPU", describeAllocation(pool.properties, kCpu)},
                                    {"Memory", describeAllocation(pool.properties, kMemory)},
                                    {"Members", members.empty() ? "none" : joined(members, "\n")}};
    // A pool without budgets allows any number of disruptions: nothing to show.
    if (const auto budgets = lookup<std::vector<Dictionary>>(pool.properties, "Budgets"); !budgets.empty()) {
        std::vector<std::string> lines;
        for (const auto& budget : budgets)
            lines.push_back(describeBudget(budget));
        fields.emplace_back("Budgets", joined(lines, "\n"));
        fields.emplace_back("Allowed disruptions", describeAllowedDisruptions(pool.properties));
    }
    return formatFieldBlock(lookup<std::string>(pool.properties, "Name"), fields);
}

}  // namespace resized::ctl
