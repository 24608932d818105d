#include "arguments.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <utility>

#include "core/cpuset.h"
#include "core/quantity.h"
#include "core/resources.h"

namespace resized::ctl {

namespace {

bool isSpace(char c)
{
    return std::isspace(static_cast<unsigned char>(c)) != 0;
}

// A number as the size parsers read it, "12", "1.5" or "10.": whole digits,
// then an optional fraction kept as digits over a power of ten (digits past
// the eighteenth are dropped).
struct Decimal {
    uint64_t whole = 0;
    uint64_t fraction = 0;
    uint64_t fractionScale = 1;
};

std::optional<Decimal> readDecimal(std::string_view text, size_t& pos)
{
    constexpr uint64_t kMaxFractionScale = 1'000'000'000'000'000'000ull;
    const size_t start = pos;
    Decimal number;
    const auto [end, error] = std::from_chars(text.data() + pos, text.data() + text.size(), number.whole);
    if (error != std::errc{})
        return std::nullopt;
    pos = end - text.data();
    if (pos == start)
        return std::nullopt;
    if (pos < text.size() && text[pos] == '.') {
        for (++pos; pos < text.size() && std::isdigit(static_cast<unsigned char>(text[pos])); ++pos) {
            if (number.fractionScale == kMaxFractionScale)
                continue;
            number.fraction = number.fraction * 10 + static_cast<uint64_t>(text[pos] - '0');
            number.fractionScale *= 10;
        }
    }
    return number;
}

// number × factor, the fraction cut to a whole; nullopt past UINT64_MAX - 1
// (UINT64_MAX itself means "no limit").
std::optional<uint64_t> scaleDown(const Decimal& number, uint64_t factor)
{
    using Wide = unsigned __int128;
    const Wide value = static_cast<Wide>(number.whole) * factor +
                       static_cast<Wide>(number.fraction) * factor / number.fractionScale;
    if (value >= core::kUnlimited)
        return std::nullopt;
    return static_cast<uint64_t>(value);
}

bool isNoLimit(std::string_view text)
{
    return text == "max" || text == "infinity";
}

std::optional<uint64_t> binaryFactorOf(char letter)
{
    switch (std::tolower(static_cast<unsigned char>(letter))) {
    case 'k': return 1ull << 10;
    case 'm': return 1ull << 20;
    case 'g': return 1ull << 30;
    case 't': return 1ull << 40;
    case 'p': return 1ull << 50;
    case 'e': return 1ull << 60;
    default: return std::nullopt;
    }
}

// The factor of a memory suffix as go-units (Podman) and Kubernetes write
// it: "", "b", or a letter followed by nothing, "b", "i" or "ib".
std::optional<uint64_t> memorySuffixFactor(std::string_view suffix)
{
    if (suffix.empty() || suffix == "b" || suffix == "B")
        return 1;
    const auto factor = binaryFactorOf(suffix.front());
    if (!factor)
        return std::nullopt;
    std::string rest;
    for (char c : suffix.substr(1))
        rest += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (rest.empty() || rest == "b" || rest == "i" || rest == "ib")
        return factor;
    return std::nullopt;
}

// One of systemd's fixed-point forms: digits, then at most `places` digits
// after a dot, ending in `symbol`; the value in units of 10^-places.
std::optional<uint64_t> parseFixedPoint(std::string_view text, std::string_view symbol, unsigned places)
{
    if (!text.ends_with(symbol))
        return std::nullopt;
    text.remove_suffix(symbol.size());
    std::string_view decimals;
    if (const size_t dot = text.find('.'); dot != std::string_view::npos) {
        decimals = text.substr(dot + 1);
        text = text.substr(0, dot);
        if (decimals.empty() || decimals.size() > places)
            return std::nullopt;
    }
    const auto whole = parseUnsignedArgument(text);
    if (!whole || *whole > UINT32_MAX)
        return std::nullopt;
    uint64_t value = *whole;
    for (unsigned place = 0; place < places; ++place) {
        const char digit = place < decimals.size() ? decimals[place] : '0';
        if (digit < '0' || digit > '9')
            return std::nullopt;
        value = value * 10 + static_cast<uint64_t>(digit - '0');
    }
    return value;
}

std::optional<double> microsecondsPerUnit(std::string_view unit)
{
    static constexpr std::array<std::pair<std::string_view, double>, 23> kUnits{{
        {"", 1e6},       {"us", 1},          {"usec", 1},        {"ms", 1e3},     {"msec", 1e3},
        {"s", 1e6},      {"sec", 1e6},       {"second", 1e6},    {"seconds", 1e6},
        {"m", 60e6},     {"min", 60e6},      {"minute", 60e6},   {"minutes", 60e6},
        {"h", 3600e6},   {"hr", 3600e6},     {"hour", 3600e6},   {"hours", 3600e6},
        {"d", 86400e6},  {"day", 86400e6},   {"days", 86400e6},
        {"w", 604800e6}, {"week", 604800e6}, {"weeks", 604800e6},
    }};
    for (const auto& [name, factor] : kUnits)
        if (name == unit)
            return factor;
    return std::nullopt;
}

}  // namespace

std::optional<uint64_t> parseUnsignedArgument(std::string_view text)
{
    uint64_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || error != std::errc{} || end != text.data() + text.size())
        return std::nullopt;
    return value;
}

std::optional<uint64_t> parsePodmanCpus(std::string_view text)
{
    if (const auto exact = core::parseCpuMillis(text))
        return exact;
    size_t pos = 0;
    const auto cpus = readDecimal(text, pos);
    if (!cpus || pos != text.size())
        return std::nullopt;
    using Wide = unsigned __int128;
    // Half a millicore and more rounds up.
    const Wide millis = static_cast<Wide>(cpus->whole) * 1000 +
                        (static_cast<Wide>(cpus->fraction) * 2000 + cpus->fractionScale) / (2 * cpus->fractionScale);
    if (millis >= core::kUnlimited)
        return std::nullopt;
    return std::max<uint64_t>(static_cast<uint64_t>(millis), core::kMinCpuMillis);
}

std::optional<uint64_t> parseCpuWeightArgument(std::string_view text)
{
    return parseUnsignedArgument(text);
}

std::optional<core::CpuSet> parseCpusArgument(std::string_view text)
{
    if (text.empty() || text == "all")
        return core::CpuSet{};
    auto cpus = core::parseCpuSet(text);
    if (!cpus || cpus->empty())
        return std::nullopt;
    return cpus;
}

std::optional<std::chrono::microseconds> parseTimespan(std::string_view text)
{
    double total = 0;
    bool sawNumber = false;
    size_t pos = 0;
    auto skipSpaces = [&] {
        while (pos < text.size() && isSpace(text[pos]))
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

std::optional<uint64_t> parseMemoryArgument(std::string_view text)
{
    if (isNoLimit(text))
        return core::kUnlimited;
    size_t pos = 0;
    const auto number = readDecimal(text, pos);
    if (!number)
        return std::nullopt;
    // go-units allows one space between the number and its unit.
    if (pos < text.size() && text[pos] == ' ')
        ++pos;
    const auto factor = memorySuffixFactor(text.substr(pos));
    if (!factor)
        return std::nullopt;
    return scaleDown(*number, *factor);
}

std::optional<uint64_t> parseCpuSharesArgument(std::string_view text)
{
    const auto shares = parseUnsignedArgument(text);
    if (!shares || *shares == 0)
        return std::nullopt;
    return cpuWeightForShares(*shares);
}

uint64_t cpuWeightForShares(uint64_t shares)
{
    constexpr uint64_t kMinShares = 2;
    constexpr uint64_t kMaxShares = 262'144;
    if (shares <= kMinShares)
        return core::kMinCpuWeight;
    if (shares >= kMaxShares)
        return core::kMaxCpuWeight;
    // crun's quadratic in log2(shares) through (2, 1), (1024, 100) and
    // (262144, 10000), computed as crun computes it so that both round alike.
    const double l = std::log2(static_cast<double>(shares));
    const double exponent = (l * l + 125 * l) / 612.0 - 7.0 / 34.0;
    return static_cast<uint64_t>(std::ceil(std::pow(10, exponent)));
}

std::optional<uint64_t> parseSystemdSize(std::string_view text)
{
    // Largest first; each part must use a smaller suffix than the one before.
    static constexpr std::array<std::pair<std::string_view, uint64_t>, 8> kSuffixes{{
        {"E", 1ull << 60}, {"P", 1ull << 50}, {"T", 1ull << 40}, {"G", 1ull << 30},
        {"M", 1ull << 20}, {"K", 1ull << 10}, {"B", 1}, {"", 1},
    }};
    uint64_t total = 0;
    size_t pos = 0;
    size_t firstAllowedSuffix = 0;
    do {
        while (pos < text.size() && isSpace(text[pos]))
            ++pos;
        const auto number = readDecimal(text, pos);
        if (!number)
            return std::nullopt;
        while (pos < text.size() && isSpace(text[pos]))
            ++pos;
        size_t suffix = firstAllowedSuffix;
        while (!text.substr(pos).starts_with(kSuffixes[suffix].first))
            ++suffix;  // ends at "", which every text starts with
        const auto part = scaleDown(*number, kSuffixes[suffix].second);
        if (!part || *part >= core::kUnlimited - total)
            return std::nullopt;
        total += *part;
        pos += kSuffixes[suffix].first.size();
        firstAllowedSuffix = suffix + 1;
    } while (pos < text.size() && firstAllowedSuffix < kSuffixes.size());
    if (pos < text.size())
        return std::nullopt;
    return total;
}

std::optional<uint64_t> parseSystemdPermyriad(std::string_view text)
{
    if (text.ends_with("‱"))
        return parseFixedPoint(text, "‱", 0);
    if (text.ends_with("‰"))
        return parseFixedPoint(text, "‰", 1);
    return parseFixedPoint(text, "%", 2);
}

}  // namespace resized::ctl
