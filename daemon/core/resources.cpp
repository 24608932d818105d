#include "core/resources.h"

#include "core/quantity.h"

namespace resized::core {

bool Resources::empty() const
{
    return !cpuMillis && !memoryMax && !memoryHigh && !cpuWeight && !allowedCpus;
}

Resources Resources::overlaidWith(const Resources& change) const
{
    Resources merged = *this;
    if (change.cpuMillis)
        merged.cpuMillis = change.cpuMillis;
    if (change.memoryMax)
        merged.memoryMax = change.memoryMax;
    if (change.memoryHigh)
        merged.memoryHigh = change.memoryHigh;
    if (change.cpuWeight)
        merged.cpuWeight = change.cpuWeight;
    if (change.allowedCpus)
        merged.allowedCpus = change.allowedCpus;
    return merged;
}

Resources Resources::restrictedTo(const Resources& mask) const
{
    Resources kept;
    if (mask.cpuMillis)
        kept.cpuMillis = cpuMillis;
    if (mask.memoryMax)
        kept.memoryMax = memoryMax;
    if (mask.memoryHigh)
        kept.memoryHigh = memoryHigh;
    if (mask.cpuWeight)
        kept.cpuWeight = cpuWeight;
    if (mask.allowedCpus)
        kept.allowedCpus = allowedCpus;
    return kept;
}

Resources Resources::without(const Resources& mask) const
{
    Resources kept = *this;
    if (mask.cpuMillis)
        kept.cpuMillis.reset();
    if (mask.memoryMax)
        kept.memoryMax.reset();
    if (mask.memoryHigh)
        kept.memoryHigh.reset();
    if (mask.cpuWeight)
        kept.cpuWeight.reset();
    if (mask.allowedCpus)
        kept.allowedCpus.reset();
    return kept;
}

std::string describe(const Resources& resources)
{
    std::string text;
    auto add = [&text](std::string_view key, const std::string& value) {
        if (!text.empty())
            text += ' ';
        text += key;
        text += '=';
        text += value;
    };
    if (resources.cpuMillis)
        add("cpu", formatCpuMillis(*resources.cpuMillis));
    if (resources.memoryMax)
        add("memory.max", formatBytes(*resources.memoryMax));
    if (resources.memoryHigh)
        add("memory.high", formatBytes(*resources.memoryHigh));
    if (resources.cpuWeight)
        add("cpu.weight", std::to_string(*resources.cpuWeight));
    if (resources.allowedCpus)
        add("cpus", resources.allowedCpus->empty() ? "all" : *resources.allowedCpus);
    return text.empty() ? "nothing" : text;
}

}  // namespace resized::core
