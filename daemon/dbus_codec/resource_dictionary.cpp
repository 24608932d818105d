#include "dbus_codec/resource_dictionary.h"

#include "core/resource_keys.h"
#include "core/validation.h"

namespace resized::dbus_codec {

core::Resources decodeResources(const Dictionary& dictionary)
{
    core::Resources resources;
    // Not a structured binding: clang before 16 cannot capture one.
    for (const auto& entry : dictionary) {
        bool known = false;
        core::forEachResourceKey([&](const auto& key) {
            if (key.name != entry.first)
                return;
            key.of(resources) = valueOf<core::ValueOf<decltype(key)>>(entry.first, entry.second);
            known = true;
        });
        if (!known)
            throw InvalidDictionary("unknown resource key \"" + entry.first +
                                    "\" (known: " + core::allResourceKeyNames() + ")");
    }
    if (auto error = core::validateAndCanonicalise(resources))
        throw InvalidDictionary(*error);
    return resources;
}

core::Resources decodeReportedResources(const Dictionary& dictionary)
{
    core::Resources resources;
    core::forEachResourceKey([&](const auto& key) {
        using Value = core::ValueOf<decltype(key)>;
        const auto it = dictionary.find(std::string(key.name));
        if (it != dictionary.end() && it->second.template containsValueOfType<Value>())
            key.of(resources) = it->second.template get<Value>();
    });
    return resources;
}

Dictionary encodeResources(const core::Resources& resources)
{
    Dictionary dictionary;
    core::forEachResourceKey([&](const auto& key) {
        if (const auto& value = key.of(resources))
            dictionary.emplace(std::string(key.name), sdbus::Variant(*value));
    });
    return dictionary;
}

}  // namespace resized::dbus_codec
