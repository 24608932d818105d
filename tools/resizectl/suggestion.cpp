#include "suggestion.h"

#include <algorithm>
#include <array>
#include <utility>

namespace resized::ctl {

namespace {

// The optimal string alignment distance: insertions, deletions,
// substitutions and transpositions of adjacent characters.
size_t editDistance(std::string_view a, std::string_view b)
{
    std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
    for (size_t i = 0; i <= a.size(); ++i)
        d[i][0] = i;
    for (size_t j = 0; j <= b.size(); ++j)
        d[0][j] = j;
    for (size_t i = 1; i <= a.size(); ++i)
        for (size_t j = 1; j <= b.size(); ++j) {
            const size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
            d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
        }
    return d[a.size()][b.size()];
}

// Dashes do not count toward the length of an option's name.
std::string_view withoutDashes(std::string_view word)
{
    while (word.starts_with('-'))
        word.remove_prefix(1);
    return word;
}

}  // namespace

std::optional<std::string> nearestWord(std::string_view typed, const std::vector<std::string>& candidates)
{
    // One edit in three characters, at least one: "stauts" is status; a
    // word of one or two letters ("ls", "-x") is one edit from too many.
    constexpr size_t kShortestTypo = 3;
    const size_t length = withoutDashes(typed).size();
    const size_t tolerated = length < kShortestTypo ? 0 : std::max<size_t>(1, length / 3);
    std::optional<std::string> nearest;
    size_t nearestDistance = tolerated + 1;
    for (const auto& candidate : candidates) {
        const size_t distance = editDistance(typed, candidate);
        if (distance < nearestDistance) {
            nearest = candidate;
            nearestDistance = distance;
        }
    }
    if (nearest)
        return nearest;

    std::optional<std::string> extended;
    for (const auto& candidate : candidates) {
        if (withoutDashes(typed).empty() || !candidate.starts_with(typed))
            continue;
        if (extended)
            return std::nullopt;  // "--memory-" could be either
        extended = candidate;
    }
    return extended;
}

std::optional<std::string> verbForSynonym(std::string_view word)
{
    static constexpr std::array<std::pair<std::string_view, std::string_view>, 13> kVerbBySynonym{{
        {"monitor", "watch"}, {"events", "watch"}, {"follow", "watch"},
        {"update", "set"},    {"resize", "set"},
        {"show", "status"},   {"inspect", "status"},
        {"ls", "list"},       {"ps", "list"},
        {"stats", "top"},
        {"info", "node"},
        {"log", "history"},   {"logs", "history"},
    }};
    for (const auto& [synonym, verb] : kVerbBySynonym)
        if (synonym == word)
            return std::string(verb);
    return std::nullopt;
}

}  // namespace resized::ctl
