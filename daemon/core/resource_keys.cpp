#include "core/resource_keys.h"

#include <stdexcept>

namespace resized::core {

CpuSet CpuListKey::fromWire(const Wire& list) const
{
    if (auto cpus = parseCpuSet(list))
        return std::move(*cpus);
    throw std::invalid_argument(std::string(name) + " \"" + list + "\" is not a CPU list such as \"0-3,6\"");
}

std::string_view nameOf(ResourceKey key)
{
    std::string_view name;
    visitResourceKey(key, [&name](const auto& descriptor) { name = descriptor.name; });
    return name;
}

std::string allResourceKeyNames()
{
    std::string text;
    forEachResourceKey([&text](const auto& key) {
        if (key.audience != Audience::Callers)
            return;
        if (!text.empty())
            text += ", ";
        text += key.name;
    });
    return text;
}

bool names(const Resources& resources, ResourceKey key)
{
    bool named = false;
    visitResourceKey(key, [&](const auto& descriptor) { named = descriptor.of(resources).has_value(); });
    return named;
}

Resources only(const Resources& resources, ResourceKey key)
{
    Resources kept;
    visitResourceKey(key, [&](const auto& descriptor) { descriptor.of(kept) = descriptor.of(resources); });
    return kept;
}

}  // namespace resized::core
