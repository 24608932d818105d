#include "bus_label.h"

#include <charconv>

namespace resized::ctl {

std::optional<std::string> workloadNameFromPath(std::string_view path)
{
    if (!path.starts_with(kWorkloadPathPrefix))
        return std::nullopt;
    const std::string_view label = path.substr(kWorkloadPathPrefix.size());
    if (label.empty())
        return std::nullopt;

    std::string name;
    for (size_t pos = 0; pos < label.size(); ++pos) {
        if (label[pos] != '_') {
            name += label[pos];
            continue;
        }
        if (pos + 2 >= label.size())
            return std::nullopt;
        unsigned byte = 0;
        const char* digits = label.data() + pos + 1;
        const auto [end, error] = std::from_chars(digits, digits + 2, byte, 16);
        if (error != std::errc{} || end != digits + 2)
            return std::nullopt;
        name += static_cast<char>(byte);
        pos += 2;
    }
    return name;
}

}  // namespace resized::ctl
