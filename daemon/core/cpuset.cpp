#include "core/cpuset.h"

#include <algorithm>
#include <charconv>
#include <iterator>

namespace resized::core {

namespace {

constexpr std::string_view kEdgeSpace = " \t\n";

std::string_view trimmed(std::string_view text)
{
    const auto first = text.find_first_not_of(kEdgeSpace);
    if (first == std::string_view::npos)
        return {};
    const auto last = text.find_last_not_of(kEdgeSpace);
    return text.substr(first, last - first + 1);
}

// A CPU number: decimal digits only (no sign, no spaces), at most kMaxCpuIndex.
std::optional<unsigned> parseCpu(std::string_view text)
{
    unsigned cpu = 0;
    const auto* end = text.data() + text.size();
    const auto [next, error] = std::from_chars(text.data(), end, cpu);
    if (text.empty() || error != std::errc() || next != end || cpu > kMaxCpuIndex)
        return std::nullopt;
    return cpu;
}

}  // namespace

std::optional<CpuSet> parseCpuSet(std::string_view text)
{
    CpuSet cpus;
    text = trimmed(text);
    if (text.empty())
        return cpus;

    while (true) {
        const auto comma = text.find(',');
        const auto item = text.substr(0, comma);
        const auto dash = item.find('-');
        const auto first = parseCpu(item.substr(0, dash));
        const auto last = dash == std::string_view::npos ? first : parseCpu(item.substr(dash + 1));
        if (!first || !last || *first > *last)
            return std::nullopt;
        for (unsigned cpu = *first; cpu <= *last; ++cpu)
            cpus.insert(cpu);
        if (comma == std::string_view::npos)
            return cpus;
        text.remove_prefix(comma + 1);
    }
}

std::string formatCpuSet(const CpuSet& cpus)
{
    std::string text;
    for (auto it = cpus.begin(); it != cpus.end();) {
        const unsigned first = *it;
        unsigned last = first;
        while (++it != cpus.end() && *it == last + 1)
            last = *it;
        if (!text.empty())
            text += ',';
        text += std::to_string(first);
        if (last != first)
            text += '-' + std::to_string(last);
    }
    return text;
}

bool isSubset(const CpuSet& inner, const CpuSet& outer)
{
    return std::includes(outer.begin(), outer.end(), inner.begin(), inner.end());
}

CpuSet intersection(const CpuSet& left, const CpuSet& right)
{
    CpuSet both;
    std::set_intersection(left.begin(), left.end(), right.begin(), right.end(), std::inserter(both, both.end()));
    return both;
}

CpuSet difference(const CpuSet& left, const CpuSet& right)
{
    CpuSet rest;
    std::set_difference(left.begin(), left.end(), right.begin(), right.end(), std::inserter(rest, rest.end()));
    return rest;
}

}  // namespace resized::core
