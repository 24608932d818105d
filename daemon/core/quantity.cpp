#include "core/quantity.h"

#include <array>
#include <charconv>
#include <utility>

#include "core/resources.h"

namespace resized::core {
namespace {

// A non-negative decimal "12", "1.5", ".25" as an exact fraction
// numerator/10^scale, refusing anything that would overflow.
struct Decimal {
    uint64_t numerator = 0;
    uint64_t denominator = 1;
};

std::optional<Decimal> parseDecimal(std::string_view text)
{
    Decimal value;
    bool seenDigit = false;
    bool seenPoint = false;
    for (char c : text) {
        if (c == '.' && !seenPoint) {
            seenPoint = true;
            continue;
        }
        if (c < '0' || c > '9')
            return std::nullopt;
        seenDigit = true;
        const uint64_t digit = static_cast<uint64_t>(c - '0');
        if (value.numerator > (kUnlimited - digit) / 10)
            return std::nullopt;
        value.numerator = value.numerator * 10 + digit;
        if (seenPoint) {
            if (value.denominator > kUnlimited / 10)
                return std::nullopt;
            value.denominator *= 10;
        }
    }
    if (!seenDigit)
        return std::nullopt;
    return value;
}

// numerator * factor / denominator, refusing overflow and non-integral results.
std::optional<uint64_t> scale(const Decimal& value, uint64_t factor)
{
    const unsigned __int128 product = static_cast<unsigned __int128>(value.numerator) * factor;
    if (product % value.denominator != 0)
        return std::nullopt;
    const unsigned __int128 result = product / value.denominator;
    if (result >= kUnlimited)
        return std::nullopt;
    return static_cast<uint64_t>(result);
}

bool isNoLimit(std::string_view text)
{
    return text == "max" || text == "infinity";
}

constexpr std::array<std::pair<std::string_view, uint64_t>, 12> kByteSuffixes{{
    {"Ki", 1ull << 10}, {"Mi", 1ull << 20}, {"Gi", 1ull << 30},
    {"Ti", 1ull << 40}, {"Pi", 1ull << 50}, {"Ei", 1ull << 60},
    {"K", 1'000ull}, {"M", 1'000'000ull}, {"G", 1'000'000'000ull},
    {"T", 1'000'000'000'000ull}, {"P", 1'000'000'000'000'000ull},
    {"E", 1'000'000'000'000'000'000ull},
}};

}  // namespace

std::optional<uint64_t> parseCpuMillis(std::string_view text)
{
    if (isNoLimit(text))
        return kUnlimited;
    uint64_t factor = 1000;
    if (text.ends_with('m')) {
        text.remove_suffix(1);
        factor = 1;
    }
    auto value = parseDecimal(text);
    if (!value)
        return std::nullopt;
    return scale(*value, factor);
}

std::optional<uint64_t> parseBytes(std::string_view text)
{
    if (isNoLimit(text))
        return kUnlimited;
    uint64_t factor = 1;
    for (const auto& [suffix, multiplier] : kByteSuffixes) {
        if (text.ends_with(suffix)) {
            text.remove_suffix(suffix.size());
            factor = multiplier;
            break;
        }
    }
    auto value = parseDecimal(text);
    if (!value)
        return std::nullopt;
    return scale(*value, factor);
}

std::string formatCpuMillis(uint64_t millis)
{
    if (millis == kUnlimited)
        return "max";
    if (millis % 1000 == 0)
        return std::to_string(millis / 1000);
    return std::to_string(millis) + "m";
}

std::string formatBytes(uint64_t bytes)
{
    if (bytes == kUnlimited)
        return "max";
    static constexpr std::array<std::string_view, 6> kUnits{"Ei", "Pi", "Ti", "Gi", "Mi", "Ki"};
    for (size_t i = 0; i < kUnits.size(); ++i) {
        const uint64_t unit = 1ull << (10 * (kUnits.size() - i));
        if (bytes != 0 && bytes % unit == 0)
            return std::to_string(bytes / unit) + std::string(kUnits[i]);
    }
    return std::to_string(bytes);
}

}  // namespace resized::core
