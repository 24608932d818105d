#include "core/resources.h"

#include "core/quantity.h"
#include "core/resource_keys.h"

namespace resized::core {

namespace {

std::string formatValue(const NumberKey& key, uint64_t value)
{
    switch (key.unit) {
    case Unit::Millicores:
        return formatCpuMillis(value);
    case Unit::Bytes:
        return formatBytes(value);
    case Unit::Plain:
        break;
    }
    return std::to_string(value);
}

std::string formatValue(const CpuListKey&, const CpuSet& cpus)
{
    return cpus.empty() ? "all" : formatCpuSet(cpus);
}

}  // namespace

bool Resources::empty() const
{
    bool empty = true;
    forEachResourceKey([&](const auto& key) { empty = empty && !key.of(*this); });
    return empty;
}

Resources Resources::overlaidWith(const Resources& change) const
{
    Resources merged = *this;
    forEachResourceKey([&](const auto& key) {
        if (key.of(change))
            key.of(merged) = key.of(change);
    });
    return merged;
}

Resources Resources::restrictedTo(const Resources& mask) const
{
    Resources kept;
    forEachResourceKey([&](const auto& key) {
        if (key.of(mask))
            key.of(kept) = key.of(*this);
    });
    return kept;
}

Resources Resources::without(const Resources& mask) const
{
    Resources kept = *this;
    forEachResourceKey([&](const auto& key) {
        if (key.of(mask))
            key.of(kept).reset();
    });
    return kept;
}

std::string describe(const Resources& resources)
{
    std::string text;
    forEachResourceKey([&](const auto& key) {
        const auto& value = key.of(resources);
        if (!value)
            return;
        if (!text.empty())
            text += ' ';
        text += key.label;
        text += '=';
        text += formatValue(key, *value);
    });
    return text.empty() ? "nothing" : text;
}

}  // namespace resized::core
