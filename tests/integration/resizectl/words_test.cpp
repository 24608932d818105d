// The pure parts behind resizectl's messages in the user's words.

#include <gtest/gtest.h>

#include "suggestion.h"

namespace resized::ctl {
namespace {

TEST(NearestWord, ATypoFindsTheWordItMisspells)
{
    const std::vector<std::string> verbs{"status", "set", "list", "top", "watch", "history"};
    EXPECT_EQ(nearestWord("stauts", verbs), "status");  // two neighbours swapped
    EXPECT_EQ(nearestWord("histroy", verbs), "history");
    EXPECT_EQ(nearestWord("lst", verbs), "list");
    EXPECT_EQ(nearestWord("frobnicate", verbs), std::nullopt);
    // Too short to tell a typo from another word.
    EXPECT_EQ(nearestWord("ls", verbs), std::nullopt);
}

TEST(NearestWord, AnUnambiguousBeginningIsCompleted)
{
    const std::vector<std::string> options{"--memory", "--memory-high", "--cpus", "--cpu-weight"};
    EXPECT_EQ(nearestWord("--memroy", options), "--memory");
    EXPECT_EQ(nearestWord("--cpu-w", options), "--cpu-weight");
    EXPECT_EQ(nearestWord("--memory-", {"--memory-high", "--memory-max"}), std::nullopt);  // which one?
}

TEST(VerbForSynonym, OtherToolsWordsLeadToTheVerb)
{
    EXPECT_EQ(verbForSynonym("monitor"), "watch");
    EXPECT_EQ(verbForSynonym("update"), "set");
    EXPECT_EQ(verbForSynonym("ps"), "list");
    EXPECT_EQ(verbForSynonym("status"), std::nullopt);
}

}  // namespace
}  // namespace resized::ctl
