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
            if (key.audience != core::Audience::Callers || key.name != entry.first)
                return;
            const auto wire = valueOf<core::WireOf<decltype(key)>>(entry.first, entry.second);
            try {
                key.of(resources) = key.fromWire(wire);
            } catch (const std::invalid_argument& malformed) {
                throw InvalidDictionary(malformed.what());
            }
            known = true;
        });
        if (!known)
            throw InvalidDictionary("unknown resource key \"" + entry.first +
                                    "\" (known: " + core::allResourceKeyNames() + ")");
    }
    if (auto error = core::outOfRange(resources))
        throw InvalidDictionary(*error);
    if (auto error = core::conflictingKeys(resources))
        throw InvalidDictionary(*error);
    return resources;
}

core::Resources decodeReportedResources(const Dictionary& dictionary)
{
    core::Resources resources;
    core::forEachResourceKey([&](const auto& key) {
        using Wire = core::WireOf<decltype(key)>;
        if (key.audience != core::Audience::Callers)
            return;
        const auto it = dictionary.find(std::string(key.name));
        if (it == dictionary.end() || !it->second.template containsValueOfType<Wire>())
            return;
        try {
            key.of(resources) = key.fromWire(it->second.template get<Wire>());
        } catch (const std::invalid_argument&) {
            // What a newer daemon reports and this reader cannot take.
        }
    });
    return resources;
}

Dictionary encodeResources(const core::Resources& resources)
{
    Dictionary dictionary;
    core::forEachResourceKey([&](const auto& key) {
        if (key.audience != core::Audience::Callers)
            return;
        if (const auto& value = key.of(resources))
            dictionary.emplace(std::string(key.name), sdbus::Variant(key.toWire(*value)));
    });
    return dictionary;
}

}  // namespace resized::dbus_codec
