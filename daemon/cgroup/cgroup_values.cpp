#include "cgroup/cgroup_values.h"

#include <charconv>

#include "cgroup/limits_backend.h"
#include "core/resources.h"

namespace resized::cgroup {

namespace {

// The kernel refuses a quota under 1 ms per period.
constexpr uint64_t kMinCpuQuotaUs = 1'000;
constexpr uint64_t kMaxCpuPeriodUs = 1'000'000;

std::string_view trimmed(std::string_view text)
{
    const auto first = text.find_first_not_of(" \t\n");
    if (first == std::string_view::npos)
        return {};
    return text.substr(first, text.find_last_not_of(" \t\n") - first + 1);
}

[[noreturn]] void throwMalformed(std::string_view what, std::string_view text,
                                 const std::filesystem::path& source)
{
    throw CgroupError(source.string() + ": expected " + std::string(what) + ", read \""
                      + std::string(trimmed(text)) + '"');
}

// What follows "key " on the first line of `text` that starts so.
std::optional<std::string_view> afterKey(std::string_view text, std::string_view key)
{
    while (!text.empty()) {
        const auto end = text.find('\n');
        const std::string_view line = text.substr(0, end);
        text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
        if (line.size() > key.size() && line.starts_with(key) && line[key.size()] == ' ')
            return line.substr(key.size() + 1);
    }
    return std::nullopt;
}

}  // namespace

uint64_t parseUnsigned(std::string_view text, const std::filesystem::path& source)
{
    const auto number = trimmed(text);
    uint64_t value = 0;
    const auto* end = number.data() + number.size();
    const auto [next, error] = std::from_chars(number.data(), end, value);
    if (number.empty() || error != std::errc() || next != end)
        throwMalformed("an unsigned number", text, source);
    return value;
}

uint64_t parseLimit(std::string_view text, const std::filesystem::path& source)
{
    return trimmed(text) == "max" ? core::kUnlimited : parseUnsigned(text, source);
}

std::string formatLimit(uint64_t value)
{
    return value == core::kUnlimited ? "max" : std::to_string(value);
}

std::optional<uint64_t> keyedValue(std::string_view text, std::string_view key,
                                   const std::filesystem::path& source)
{
    const auto value = afterKey(text, key);
    if (!value)
        return std::nullopt;
    return parseUnsigned(*value, source);
}

std::optional<uint64_t> pressureTotal(std::string_view text, std::string_view kind,
                                      const std::filesystem::path& source)
{
    constexpr std::string_view field = " total=";
    const auto fields = afterKey(text, kind);
    if (!fields)
        return std::nullopt;
    const auto at = fields->find(field);
    if (at == std::string_view::npos)
        throwMalformed("a pressure line", *fields, source);
    const auto value = fields->substr(at + field.size());
    return parseUnsigned(value.substr(0, value.find(' ')), source);
}

core::CpuSet parseCpus(std::string_view text, const std::filesystem::path& source)
{
    auto cpus = core::parseCpuSet(text);
    if (!cpus)
        throwMalformed("a CPU list", text, source);
    return *cpus;
}

core::CpuSet allowedCpus(std::string_view text, const core::CpuSet& parentCpus, const std::filesystem::path& source)
{
    auto cpus = parseCpus(text, source);
    return cpus == parentCpus ? core::CpuSet{} : cpus;
}

CpuBandwidth bandwidthForMillis(uint64_t millis)
{
    // Below 10 millicores the default period would need a quota under the
    // kernel's minimum; a longer period keeps the same share.
    uint64_t period = kDefaultCpuPeriodUs;
    if (millis * period / 1000 < kMinCpuQuotaUs)
        period = kMaxCpuPeriodUs;
    return {millis * period / 1000, period};
}

uint64_t millisForBandwidth(const CpuBandwidth& bandwidth, const std::filesystem::path& source)
{
    if (bandwidth.periodUs == 0 || bandwidth.quotaUs > core::kMaxCpuMillis * kMaxCpuPeriodUs)
        throw CgroupError(source.string() + ": CPU quota " + std::to_string(bandwidth.quotaUs)
                          + " per period " + std::to_string(bandwidth.periodUs)
                          + " is out of range");
    return (bandwidth.quotaUs * 1000 + bandwidth.periodUs / 2) / bandwidth.periodUs;
}

}  // namespace resized::cgroup
