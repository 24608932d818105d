#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace resized::ctl {

// The word among `candidates` that `typed` most likely misspells: the
// closest by edit distance (a swap of two neighbours counts as one edit, as
// in "stauts"), if close enough to be a typo rather than another word, or
// the only candidate that `typed` begins. nullopt when none is.
std::optional<std::string> nearestWord(std::string_view typed, const std::vector<std::string>& candidates);

// The verb that does what a word other tools use means, for people who
// arrive with another tool's vocabulary: "monitor" → "watch", "update" →
// "set", "ps" → "list". nullopt for a word with no such verb.
std::optional<std::string> verbForSynonym(std::string_view word);

}  // namespace resized::ctl
