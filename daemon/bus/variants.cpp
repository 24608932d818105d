#include "bus/variants.h"

#include "store/json_resources.h"

#include <algorithm>
#include <chrono>
#include <iterator>

namespace resized::bus {
namespace {

using dbus_codec::valueOf;
using service::ErrorCode;
using service::ResizeError;

// A dictionary that breaks the contract is the caller's InvalidArgument.
template <typename Decode>
auto asInvalidArgument(Decode decode) -> decltype(decode())
{
    try {
        return decode();
    } catch (const dbus_codec::InvalidDictionary& error) {
        throw ResizeError(ErrorCode::InvalidArgument, error.what());
    }
}

// The keys of one entry of a pool's Budgets (design.md §1b), each with how
// SetPool reads it and how the Budgets property shows it: every key always,
// with the defaults SetPool assumes for a key not given. Their meaning is
// checked where a configuration file's budgets are checked too.
struct BudgetKey {
    const char* name;
    void (*decode)(service::BudgetSpec& spec, const std::string& key, const sdbus::Variant& value);
    sdbus::Variant (*encode)(const core::DisruptionBudget& budget);
};

constexpr BudgetKey kBudgetKeys[] = {
    {"Value", [](auto& spec, const auto& key, const auto& value) { spec.value = valueOf<std::string>(key, value); },
     [](const auto& budget) { return sdbus::Variant(core::formatBudgetValue(budget)); }},
    {"PeriodUSec",
     [](auto& spec, const auto& key, const auto& value) { spec.periodUsec = valueOf<uint64_t>(key, value); },
     [](const auto& budget) { return sdbus::Variant(budget.periodUsec); }},
    {"Reasons",
     [](auto& spec, const auto& key, const auto& value) {
         spec.reasons = valueOf<std::vector<std::string>>(key, value);
     },
     [](const auto& budget) {
         std::vector<std::string> reasons;
         for (const auto reason : budget.reasons)
             reasons.emplace_back(core::toString(reason));
         return sdbus::Variant(reasons);
     }},
    {"Schedule",
     [](auto& spec, const auto& key, const auto& value) { spec.schedule = valueOf<std::string>(key, value); },
     [](const auto& budget) { return sdbus::Variant(budget.window ? budget.window->schedule.text() : ""); }},
    {"DurationUSec",
     [](auto& spec, const auto& key, const auto& value) { spec.durationUsec = valueOf<uint64_t>(key, value); },
     [](const auto& budget) { return sdbus::Variant(budget.window ? budget.window->durationUsec : uint64_t{0}); }},
    {"TimeZone",
     [](auto& spec, const auto& key, const auto& value) { spec.timeZone = valueOf<std::string>(key, value); },
     [](const auto& budget) {
         return sdbus::Variant(budget.window ? budget.window->timeZone : core::DisruptionBudget::Window{}.timeZone);
     }},
};

std::string budgetKeyNames()
{
    std::string names;
    for (const auto& key : kBudgetKeys)
        names += (names.empty() ? "" : ", ") + std::string(key.name);
    return names;
}

core::DisruptionBudget decodeBudget(const Dictionary& dictionary)
{
    service::BudgetSpec spec;
    for (const auto& [key, value] : dictionary) {
        const auto known = std::find_if(std::begin(kBudgetKeys), std::end(kBudgetKeys),
                                        [&name = key](const BudgetKey& budgetKey) { return name == budgetKey.name; });
        if (known == std::end(kBudgetKeys))
            throw dbus_codec::InvalidDictionary("unknown budget key \"" + key + "\" (known: " + budgetKeyNames() +
                                                ")");
        known->decode(spec, key, value);
    }
    return service::checkedBudget(spec);
}

std::vector<core::DisruptionBudget> decodeBudgets(const std::vector<Dictionary>& dictionaries)
{
    std::vector<core::DisruptionBudget> budgets;
    for (const auto& dictionary : dictionaries)
        budgets.push_back(decodeBudget(dictionary));
    return budgets;
}

}  // namespace

core::Resources decodeResources(const Dictionary& dictionary)
{
    return asInvalidArgument([&] { return dbus_codec::decodeResources(dictionary); });
}

core::autoscale::Policy decodeAutoscalePolicy(const Dictionary& dictionary)
{
    return asInvalidArgument([&] { return dbus_codec::decodeAutoscalePolicy(dictionary); });
}

service::PoolSpec decodePoolSpec(const Dictionary& dictionary)
{
    return asInvalidArgument([&] {
        service::PoolSpec spec;
        for (const auto& [key, value] : dictionary) {
            if (key == "CpuMillis")
                spec.cpuMillis = valueOf<uint64_t>(key, value);
            else if (key == "MemoryMax")
                spec.memory = valueOf<uint64_t>(key, value);
            else if (key == "Budgets")
                spec.budgets = decodeBudgets(valueOf<std::vector<Dictionary>>(key, value));
            else
                throw dbus_codec::InvalidDictionary("unknown pool key \"" + key +
                                                    "\" (known: CpuMillis, MemoryMax, Budgets)");
        }
        return spec;
    });
}

std::vector<Dictionary> encodeBudgets(const std::vector<core::DisruptionBudget>& budgets)
{
    std::vector<Dictionary> dictionaries;
    for (const auto& budget : budgets) {
        Dictionary& dictionary = dictionaries.emplace_back();
        for (const auto& key : kBudgetKeys)
            dictionary.emplace(key.name, key.encode(budget));
    }
    return dictionaries;
}

Dictionary encodeAutoscaleStatus(const service::AutoscaleStatus& status)
{
    Dictionary dictionary{{"Condition", sdbus::Variant(status.condition)},
                          {"LastScaleUSec", sdbus::Variant(status.lastScaleUsec)}};
    const std::pair<const char*, const std::optional<uint64_t>&> figures[] = {
        {"CpuUsageMillis", status.cpuUsageMillis},
        {"MemoryWorkingSet", status.memoryWorkingSet},
        {"CpuRecommendationMillis", status.cpuRecommendationMillis},
        {"MemoryRecommendation", status.memoryRecommendation},
    };
    for (const auto& [key, figure] : figures)
        if (figure)
            dictionary.emplace(key, sdbus::Variant(*figure));
    for (const auto& [key, condition] :
         {std::pair{"CpuCondition", &status.cpuCondition}, std::pair{"MemoryCondition", &status.memoryCondition}})
        if (!condition->empty())
            dictionary.emplace(key, sdbus::Variant(*condition));
    if (!status.metrics.empty()) {
        dictionary.emplace("Metrics", sdbus::Variant(status.metrics));
        dictionary.emplace("MetricsAgeUSec", sdbus::Variant(status.metricsAgeUsec));
    }
    return dictionary;
}

service::UpdateOptions decodeOptions(const Dictionary& dictionary)
{
    return asInvalidArgument([&] {
        service::UpdateOptions options;
        for (const auto& [key, value] : dictionary) {
            if (key == "DryRun")
                options.dryRun = valueOf<bool>(key, value);
            else if (key == "Force")
                options.force = valueOf<bool>(key, value);
            else if (key == "Defer")
                options.defer = valueOf<bool>(key, value);
            else if (key == "ReclaimTimeoutUSec")
                options.reclaimTimeout = std::chrono::microseconds(
                    std::min<uint64_t>(valueOf<uint64_t>(key, value), std::chrono::microseconds::max().count()));
            else if (key == "Pool")
                options.pool = valueOf<std::string>(key, value);
            else
                throw dbus_codec::InvalidDictionary("unknown option \"" + key +
                                                    "\" (known: DryRun, Force, Defer, ReclaimTimeoutUSec, Pool)");
        }
        return options;
    });
}

service::PlanRequest decodePlanRequest(const std::vector<PlanChangeStruct>& changes, const Dictionary& options)
{
    service::PlanRequest request;
    for (const auto& change : changes) {
        try {
            request.changes.push_back({change.get<0>(), decodeResources(change.get<1>())});
        } catch (const service::ResizeError& error) {
            throw service::ResizeError(error.code(), "the change of \"" + change.get<0>() + "\": " + error.what());
        }
    }
    asInvalidArgument([&] {
        for (const auto& [key, value] : options) {
            if (key == "DryRun") {
                request.dryRun = valueOf<bool>(key, value);
            } else if (key == "DelayUSec") {
                request.delay = std::chrono::microseconds(
                    std::min<uint64_t>(valueOf<uint64_t>(key, value), std::chrono::microseconds::max().count()));
            } else if (key == "Reason") {
                const auto text = valueOf<std::string>(key, value);
                const auto reason = core::parseDisruptionReason(text);
                if (!reason)
                    throw dbus_codec::InvalidDictionary("Reason \"" + text + "\" is none of manual, autoscale, plan");
                request.reason = *reason;
            } else if (key == "ExpectedGenerations") {
                request.expectedGenerations = valueOf<std::map<std::string, uint64_t>>(key, value);
            } else if (key == "Defer") {
                request.defer = valueOf<bool>(key, value);
            } else {
                throw dbus_codec::InvalidDictionary("unknown option \"" + key +
                                                    "\" (known: DryRun, DelayUSec, Reason, ExpectedGenerations, Defer)");
            }
        }
        return 0;
    });
    return request;
}

std::vector<PlanChangeStruct> encodePlanChanges(const std::vector<store::PlanChange>& changes)
{
    std::vector<PlanChangeStruct> encoded;
    for (const auto& change : changes)
        encoded.emplace_back(change.workload, encodeResources(change.resources));
    return encoded;
}

namespace {

// "absent": never seen running since resized knows it (a record), or not
// there at all.
std::string runStateName(core::RunState state)
{
    return state == core::RunState::Unknown ? std::string("absent") : std::string(core::toString(state));
}

}  // namespace

Dictionary encodeStatus(const store::WorkloadRecord& record)
{
    return {
        {"Workload", sdbus::Variant(record.name)},
        {"ContainerId", sdbus::Variant(record.containerId)},
        {"CgroupPath", sdbus::Variant(record.cgroupPath)},
        {"Driver", sdbus::Variant(record.driver)},
        {"Kind", sdbus::Variant(std::string(core::toString(record.kind)))},
        {"Pod", sdbus::Variant(record.pod)},
        {"Pool", sdbus::Variant(record.pool())},
        {"RunState", sdbus::Variant(runStateName(record.runState))},
        {"Desired", sdbus::Variant(encodeResources(record.desired))},
        {"Actual", sdbus::Variant(encodeResources(record.actual))},
        {"SyncState", sdbus::Variant(std::string(core::toString(record.syncState)))},
        {"UpdateState", sdbus::Variant(std::string(core::toString(record.updateState)))},
        {"Message", sdbus::Variant(record.message)},
        {"Generation", sdbus::Variant(record.generation)},
        {"ObservedGeneration", sdbus::Variant(record.observedGeneration)},
        {"UpdatedAtUSec", sdbus::Variant(record.updatedAtUsec)},
    };
}

Dictionary encodeNodeWorkload(const service::NodeWorkload& workload)
{
    return {
        {"Name", sdbus::Variant(workload.name)},
        {"Kind", sdbus::Variant(std::string(core::toString(workload.kind)))},
        {"Managed", sdbus::Variant(workload.managed)},
        {"Pod", sdbus::Variant(workload.pod)},
        {"Pool", sdbus::Variant(workload.pool)},
        {"RunState", sdbus::Variant(runStateName(workload.runState))},
        {"Actual", sdbus::Variant(encodeResources(workload.actual))},
    };
}

Dictionary encodeHistoryEntry(const store::HistoryEntry& entry)
{
    return {
        {"TimeUSec", sdbus::Variant(entry.finishedAtUsec)},
        {"Workload", sdbus::Variant(entry.workload)},
        {"Actor", sdbus::Variant(entry.actor)},
        {"Operation", sdbus::Variant(entry.operation)},
        {"Request", sdbus::Variant(encodeResources(store::resourcesFromJson(entry.request)))},
        {"Result", sdbus::Variant(entry.result)},
        {"Message", sdbus::Variant(entry.message)},
    };
}

}  // namespace resized::bus
