#include "store/json_resources.h"

#include <nlohmann/json.hpp>

#include "store/database.h"

namespace resized::store {
namespace {

template <typename T>
void put(nlohmann::json& object, const char* key, const std::optional<T>& value)
{
    if (value)
        object[key] = *value;
}

template <typename T>
void take(const nlohmann::json& object, const char* key, std::optional<T>& value)
{
    if (auto it = object.find(key); it != object.end())
        value = it->get<T>();
}

}  // namespace

std::string toJson(const core::Resources& resources)
{
    nlohmann::json object = nlohmann::json::object();
    put(object, "CpuMillis", resources.cpuMillis);
    put(object, "MemoryMax", resources.memoryMax);
    put(object, "MemoryHigh", resources.memoryHigh);
    put(object, "CpuWeight", resources.cpuWeight);
    put(object, "AllowedCpus", resources.allowedCpus);
    return object.dump();
}

core::Resources resourcesFromJson(const std::string& text)
{
    try {
        const auto object = nlohmann::json::parse(text);
        core::Resources resources;
        take(object, "CpuMillis", resources.cpuMillis);
        take(object, "MemoryMax", resources.memoryMax);
        take(object, "MemoryHigh", resources.memoryHigh);
        take(object, "CpuWeight", resources.cpuWeight);
        take(object, "AllowedCpus", resources.allowedCpus);
        return resources;
    } catch (const nlohmann::json::exception& error) {
        throw StoreError("malformed resource set in the state database: " + std::string(error.what()));
    }
}

}  // namespace resized::store
