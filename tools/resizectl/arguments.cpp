#include "arguments.h"

#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <utility>

#include "core/cpuset.h"

namespace resized::ctl {

namespace {

std::optional<uint64_t> parseUnsigned(std::string_view text)
{
    uint64_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || error != std::errc{} || end != text.data() + text.size())
        return std::nullopt;
    return value;
}

std::optional<double> microsecondsPerUnit(std::string_view unit)
{
    static constexpr std::array<std::pair<std::string_view, double>, 14> kUnits{{
        {"", 1e6},      {"us", 1},       {"usec", 1},     {"ms", 1e3},  {"msec", 1e3},
        {"s", 1e6},     {"sec", 1e6},    {"second", 1e6}, {"seconds", 1e6},
        {"m", 60e6},    {"min", 60e6},   {"minutes", 60e6},
        {"h", 3600e6},  {"hour", 3600e6},
    }};
    for (const auto& [name, factor] : kUnits)
        if (name == unit)
            return factor;
    return std::nullopt;
}

}  // namespace

std::optional<uint64_t> parseCpuWeightArgument(std::string_view text)
{
    return parseUnsigned(text);
}

std::optional<std::string> parseCpusArgument(std::string_view text)
{
    if (text.empty() || text == "all")
        return std::string{};
    const auto cpus = core::parseCpuSet(text);
    if (!cpus || cpus->empty())
        return std::nullopt;
    return core::formatCpuSet(*cpus);
}

std::optional<std::chrono::microseconds> parseTimespan(std::string_view text)
{
    double total = 0;
    bool sawNumber = false;
    size_t pos = 0;
    auto skipSpaces = [&] {
        while (pos < text.size() && std::isspace(static_cast<unsigned char>(text[pos])))
            ++pos;
    };
    for (skipSpaces(); pos < text.size(); skipSpaces()) {
        double number = 0;
        const auto [end, error] = std::from_chars(text.data() + pos, text.data() + text.size(), number);
        if (error != std::errc{} || number < 0 || !std::isfinite(number))
            return std::nullopt;
        pos = end - text.data();
        const size_t unitStart = pos;
        while (pos < text.size() && std::isalpha(static_cast<unsigned char>(text[pos])))
            ++pos;
        const auto factor = microsecondsPerUnit(text.substr(unitStart, pos - unitStart));
        if (!factor)
            return std::nullopt;
        total += number * *factor;
        sawNumber = true;
    }
    if (!sawNumber || total >= 1e18)
        return std::nullopt;
    return std::chrono::microseconds(static_cast<int64_t>(std::llround(total)));
}

}  // namespace resized::ctl
