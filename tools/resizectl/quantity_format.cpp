#include "quantity_format.h"

#include <array>
#include <string_view>

#include "core/quantity.h"

namespace resized::ctl {

std::string formatMemory(uint64_t bytes)
{
    if (bytes == core::kUnlimited)
        return "max";
    static constexpr std::array<std::string_view, 6> kUnits{"Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
    size_t unit = 0;
    while (unit + 1 < kUnits.size() && bytes >> (10 * (unit + 2)) != 0)
        ++unit;
    const uint64_t size = 1ull << (10 * (unit + 1));
    if (bytes < size)
        return std::to_string(bytes);
    if (bytes % size == 0)
        return std::to_string(bytes / size) + std::string(kUnits[unit]);
    using Wide = unsigned __int128;
    uint64_t tenths = static_cast<uint64_t>((static_cast<Wide>(bytes) * 10 + size / 2) / size);
    // 1023.96Mi rounds to 1024.0Mi, which is 1.0Gi.
    if (tenths == 10240 && unit + 1 < kUnits.size()) {
        tenths = 10;
        ++unit;
    }
    return std::to_string(tenths / 10) + '.' + std::to_string(tenths % 10) + std::string(kUnits[unit]);
}

std::string formatCpus(uint64_t millis)
{
    if (millis == core::kUnlimited)
        return "max";
    std::string text = std::to_string(millis / 1000);
    if (const uint64_t fraction = millis % 1000; fraction != 0) {
        std::string digits = std::to_string(1000 + fraction).substr(1);
        digits.erase(digits.find_last_not_of('0') + 1);
        text += '.' + digits;
    }
    return text;
}

std::string describeLimits(const core::Resources& resources)
{
    std::string text;
    auto add = [&text](std::string_view key, const std::string& value) {
        if (!text.empty())
            text += ' ';
        text.append(key).append("=").append(value);
    };
    if (resources.cpuMillis)
        add("cpu", core::formatCpuMillis(*resources.cpuMillis));
    if (resources.memoryMax)
        add("memory.max", formatMemory(*resources.memoryMax));
    if (resources.memoryHigh)
        add("memory.high", formatMemory(*resources.memoryHigh));
    if (resources.cpuWeight)
        add("cpu.weight", std::to_string(*resources.cpuWeight));
    if (resources.allowedCpus)
        add("cpus", resources.allowedCpus->empty() ? "all" : core::formatCpuSet(*resources.allowedCpus));
    if (resources.exclusiveCpus)
        add("exclusive-cpus", std::to_string(*resources.exclusiveCpus));
    return text.empty() ? "none" : text;
}

}  // namespace resized::ctl
