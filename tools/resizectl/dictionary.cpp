#include "dictionary.h"

#include <cstdint>
#include <vector>

#include <sdbus-c++/Types.h>

namespace resized::ctl {

Dictionary toDictionary(const core::Resources& resources)
{
    return dbus_codec::encodeResources(resources);
}

Dictionary toDictionary(const UpdateOptions& options)
{
    Dictionary dictionary;
    if (options.dryRun)
        dictionary.emplace("DryRun", true);
    if (options.force)
        dictionary.emplace("Force", true);
    if (options.defer)
        dictionary.emplace("Defer", true);
    if (options.reclaimTimeout)
        dictionary.emplace("ReclaimTimeoutUSec", static_cast<uint64_t>(options.reclaimTimeout->count()));
    if (options.pool)
        dictionary.emplace("Pool", *options.pool);
    return dictionary;
}

Dictionary toDictionary(const PoolChanges& changes)
{
    Dictionary dictionary;
    if (changes.cpuMillis)
        dictionary.emplace("CpuMillis", *changes.cpuMillis);
    if (changes.memoryMax)
        dictionary.emplace("MemoryMax", *changes.memoryMax);
    if (changes.budgets)
        dictionary.emplace("Budgets", *changes.budgets);
    return dictionary;
}

core::Resources resourcesFromDictionary(const Dictionary& dictionary)
{
    return dbus_codec::decodeReportedResources(dictionary);
}

nlohmann::json toJson(const sdbus::Variant& value)
{
    const std::string type = value.peekValueType();
    if (type == "s")
        return value.get<std::string>();
    if (type == "o")
        return std::string(value.get<sdbus::ObjectPath>());
    if (type == "b")
        return value.get<bool>();
    if (type == "y")
        return value.get<uint8_t>();
    if (type == "q")
        return value.get<uint16_t>();
    if (type == "u")
        return value.get<uint32_t>();
    if (type == "t")
        return value.get<uint64_t>();
    if (type == "n")
        return value.get<int16_t>();
    if (type == "i")
        return value.get<int32_t>();
    if (type == "x")
        return value.get<int64_t>();
    if (type == "d")
        return value.get<double>();
    if (type == "as")
        return value.get<std::vector<std::string>>();
    if (type == "a{sv}")
        return toJson(value.get<Dictionary>());
    if (type == "aa{sv}") {
        // A pool's budgets.
        auto dictionaries = nlohmann::json::array();
        for (const auto& dictionary : value.get<std::vector<Dictionary>>())
            dictionaries.push_back(toJson(dictionary));
        return dictionaries;
    }
    if (type == "a{sd}")
        // The application metrics last reported, by name.
        return nlohmann::json(value.get<std::map<std::string, double>>());
    if (type == "a{st}")
        // How long ago each of them was reported.
        return nlohmann::json(value.get<std::map<std::string, uint64_t>>());
    if (type == "a(stt)") {
        // The autoscaler's rate policies: (kind, value, period), as busctl
        // --json shows a struct.
        auto policies = nlohmann::json::array();
        for (const auto& policy : value.get<std::vector<sdbus::Struct<std::string, uint64_t, uint64_t>>>())
            policies.push_back({policy.get<0>(), policy.get<1>(), policy.get<2>()});
        return policies;
    }
    if (type == "a(sa{sv})") {
        // A plan's changes, each as a plan file writes it.
        auto changes = nlohmann::json::array();
        for (const auto& change : value.get<std::vector<sdbus::Struct<std::string, Dictionary>>>())
            changes.push_back({{"Workload", change.get<0>()}, {"Resources", toJson(change.get<1>())}});
        return changes;
    }
    // Keep the key visible even for a type this client cannot show.
    return nlohmann::json{{"unsupported_dbus_type", type}};
}

nlohmann::json toJson(const Dictionary& dictionary)
{
    nlohmann::json object = nlohmann::json::object();
    for (const auto& [key, value] : dictionary) {
        // An autoscale policy's metrics share the plan's type, a(sa{sv}),
        // but are named fields by metric name, not changes by workload.
        if (key == "Metrics" && value.peekValueType() == "a(sa{sv})") {
            auto metrics = nlohmann::json::object();
            for (const auto& metric : value.get<std::vector<sdbus::Struct<std::string, Dictionary>>>())
                metrics[metric.get<0>()] = toJson(metric.get<1>());
            object[key] = std::move(metrics);
            continue;
        }
        object[key] = toJson(value);
    }
    return object;
}

nlohmann::json toJson(const BusObject& object)
{
    nlohmann::json json = toJson(object.properties);
    json["ObjectPath"] = object.objectPath;
    return json;
}

}  // namespace resized::ctl
