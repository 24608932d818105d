#include "bus/variants.h"

#include "core/validation.h"

namespace resized::bus {
namespace {

using service::ErrorCode;
using service::ResizeError;

template <typename T>
T take(const std::string& key, const sdbus::Variant& value)
{
    if (!value.containsValueOfType<T>())
        throw ResizeError(ErrorCode::InvalidArgument,
                          key + " must be of D-Bus type '" + sdbus::signature_of<T>::str() +
                              "', got '" + value.peekValueType() + "'");
    return value.get<T>();
}

template <typename T>
void put(Dictionary& dictionary, const char* key, const std::optional<T>& value)
{
    if (value)
        dictionary.emplace(key, sdbus::Variant(*value));
}

}  // namespace

core::Resources decodeResources(const Dictionary& dictionary)
{
    core::Resources resources;
    for (const auto& [key, value] : dictionary) {
        if (key == "CpuMillis")
            resources.cpuMillis = take<uint64_t>(key, value);
        else if (key == "MemoryMax")
            resources.memoryMax = take<uint64_t>(key, value);
        else if (key == "MemoryHigh")
            resources.memoryHigh = take<uint64_t>(key, value);
        else if (key == "CpuWeight")
            resources.cpuWeight = take<uint64_t>(key, value);
        else if (key == "AllowedCpus")
            resources.allowedCpus = take<std::string>(key, value);
        else
            throw ResizeError(ErrorCode::InvalidArgument,
                              "unknown resource key \"" + key +
                                  "\" (known: CpuMillis, MemoryMax, MemoryHigh, CpuWeight, AllowedCpus)");
    }
    if (auto error = core::validateAndCanonicalise(resources))
        throw ResizeError(ErrorCode::InvalidArgument, *error);
    return resources;
}

Dictionary encodeResources(const core::Resources& resources)
{
    Dictionary dictionary;
    put(dictionary, "CpuMillis", resources.cpuMillis);
    put(dictionary, "MemoryMax", resources.memoryMax);
    put(dictionary, "MemoryHigh", resources.memoryHigh);
    put(dictionary, "CpuWeight", resources.cpuWeight);
    put(dictionary, "AllowedCpus", resources.allowedCpus);
    return dictionary;
}

service::UpdateOptions decodeOptions(const Dictionary& dictionary)
{
    service::UpdateOptions options;
    for (const auto& [key, value] : dictionary) {
        if (key == "DryRun")
            options.dryRun = take<bool>(key, value);
        else if (key == "Force")
            options.force = take<bool>(key, value);
        else if (key == "Defer")
            options.defer = take<bool>(key, value);
        else if (key == "ReclaimTimeoutUSec")
            options.reclaimTimeout = std::chrono::microseconds(
                std::min<uint64_t>(take<uint64_t>(key, value), std::chrono::microseconds::max().count()));
        else
            throw ResizeError(ErrorCode::InvalidArgument,
                              "unknown option \"" + key +
                                  "\" (known: DryRun, Force, Defer, ReclaimTimeoutUSec)");
    }
    return options;
}

Dictionary encodeStatus(const store::WorkloadRecord& record)
{
    return {
        {"Workload", sdbus::Variant(record.name)},
        {"ContainerId", sdbus::Variant(record.containerId)},
        {"CgroupPath", sdbus::Variant(record.cgroupPath)},
        {"Driver", sdbus::Variant(record.driver)},
        {"Kind", sdbus::Variant(std::string(core::toString(record.kind)))},
        {"Pod", sdbus::Variant(record.pod)},
        // Pools come with their own issue; until then no workload has one.
        {"Pool", sdbus::Variant(std::string())},
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

}  // namespace resized::bus
