#include "store/json_resources.h"

#include <nlohmann/json.hpp>

#include "core/resource_keys.h"
#include "store/database.h"

namespace resized::store {

std::string toJson(const core::Resources& resources)
{
    nlohmann::json object = nlohmann::json::object();
    core::forEachResourceKey([&](const auto& key) {
        if (const auto& value = key.of(resources))
            object[std::string(key.name)] = key.toWire(*value);
    });
    return object.dump();
}

core::Resources resourcesFromJson(const std::string& text)
{
    try {
        const auto object = nlohmann::json::parse(text);
        core::Resources resources;
        core::forEachResourceKey([&](const auto& key) {
            if (const auto it = object.find(std::string(key.name)); it != object.end())
                key.of(resources) = key.fromWire(it->template get<core::WireOf<decltype(key)>>());
        });
        return resources;
    } catch (const nlohmann::json::exception& error) {
        throw StoreError("malformed resource set in the state database: " + std::string(error.what()));
    } catch (const std::invalid_argument& error) {
        throw StoreError("malformed resource set in the state database: " + std::string(error.what()));
    }
}

}  // namespace resized::store
