#include "quantity_format.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <string_view>
#include <utility>

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

std::string formatMemoryLike(uint64_t bytes, std::string_view typed)
{
    const std::string readable = formatMemory(bytes);
    const size_t unit = typed.find_first_not_of("0123456789. ");
    if (bytes == core::kUnlimited)
        return readable;
    if (unit == std::string_view::npos)
        return std::to_string(bytes);  // plain bytes
    const std::string_view suffix = typed.substr(unit);
    if (suffix.size() >= 2 && (suffix[1] == 'i' || suffix[1] == 'I'))
        return readable;  // Kubernetes' Mi, Gi
    if (!readable.ends_with('i'))
        return readable;  // below 1Ki: bytes
    // "4Mi" → "4M" for systemd, "4m" for Podman's lower case.
    std::string text = readable.substr(0, readable.size() - 1);
    if (std::islower(static_cast<unsigned char>(suffix.front())))
        text.back() = static_cast<char>(std::tolower(static_cast<unsigned char>(text.back())));
    return text;
}

std::string readableSizes(std::string_view message)
{
    static constexpr std::array<std::pair<std::string_view, unsigned>, 6> kUnits{
        {{"Ki", 10}, {"Mi", 20}, {"Gi", 30}, {"Ti", 40}, {"Pi", 50}, {"Ei", 60}}};
    std::string out;
    size_t pos = 0;
    while (pos < message.size()) {
        if (!std::isdigit(static_cast<unsigned char>(message[pos])) ||
            (pos > 0 && std::isalnum(static_cast<unsigned char>(message[pos - 1])))) {
            out += message[pos++];
            continue;
        }
        size_t end = pos;
        while (end < message.size() && std::isdigit(static_cast<unsigned char>(message[end])))
            ++end;
        const std::string_view digits = message.substr(pos, end - pos);
        const std::string_view rest = message.substr(end);
        const auto unit = std::find_if(kUnits.begin(), kUnits.end(), [&](const auto& candidate) {
            return rest.starts_with(candidate.first) &&
                   (rest.size() == 2 || !std::isalnum(static_cast<unsigned char>(rest[2])));
        });
        uint64_t count = 0;
        const bool parsed = std::from_chars(digits.data(), digits.data() + digits.size(), count).ec == std::errc{};
        if (unit == kUnits.end() || !parsed || count > (core::kUnlimited >> unit->second)) {
            out += digits;
            pos = end;
            continue;
        }
        out += formatMemory(count << unit->second);
        pos = end + unit->first.size();
    }
    return out;
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
