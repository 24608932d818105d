// resized's rule for when a string names a container or pod (design.md §1b:
// a name, a full ID, or a unique ID prefix of at least twelve hex digits).

#include <gtest/gtest.h>

#include <string>

#include "runtime/names.h"

using namespace resized::runtime;

namespace {

constexpr const char* kId = "b3c9a1f0d2e4b3c9a1f0d2e4b3c9a1f0d2e4b3c9a1f0d2e4b3c9a1f0d2e4b3c9";

}  // namespace

TEST(NamesExactly, NameOrFullId)
{
    EXPECT_TRUE(namesExactly("web", kId, "web"));
    EXPECT_TRUE(namesExactly(kId, kId, "web"));
    EXPECT_FALSE(namesExactly("db", kId, "web"));
}

TEST(NamesExactly, ShortIdPrefixesNeverMatch)
{
    // The case of issue 13: workload "b3" must not land on this container.
    EXPECT_FALSE(namesExactly("b3", kId, "web"));
    EXPECT_FALSE(namesExactly("b3c9a1f0d2e", kId, "web"));  // 11 digits
    EXPECT_TRUE(namesExactly("b3c9a1f0d2e4", kId, "web"));  // 12 digits
    EXPECT_TRUE(namesExactly(std::string(kId).substr(0, 63), kId, "web"));
}

TEST(NamesExactly, LongStringsThatAreNoPrefix)
{
    EXPECT_FALSE(namesExactly("b3c9a1f0d2e5", kId, "web"));
    EXPECT_FALSE(namesExactly("B3C9A1F0D2E4", kId, "web"));  // Podman's IDs are lowercase
    EXPECT_FALSE(namesExactly(std::string(kId) + "0", kId, "web"));
}

TEST(NamesExactly, AShortNameThatLooksLikeHexIsAName)
{
    EXPECT_TRUE(namesExactly("b3", kId, "b3"));
    EXPECT_TRUE(namesExactly("cafe", "cafe00000000", "cafe"));
}

TEST(CouldBeIdPrefix, TwelveLowercaseHexDigitsOrMore)
{
    EXPECT_TRUE(couldBeIdPrefix("0123456789ab"));
    EXPECT_TRUE(couldBeIdPrefix(kId));
    EXPECT_FALSE(couldBeIdPrefix("0123456789a"));
    EXPECT_FALSE(couldBeIdPrefix("0123456789ag"));
    EXPECT_FALSE(couldBeIdPrefix("0123456789AB"));
    EXPECT_FALSE(couldBeIdPrefix(""));
}

TEST(CouldNameContainerOrPod, PodmansNameRule)
{
    for (const char* name : {"a", "web", "Web-1", "a.b_c-d", "0", kId})
        EXPECT_TRUE(couldNameContainerOrPod(name)) << name;
    for (const char* name : {"", ".", "..", "-a", "_a", ".a", "a/b", "../x", "a b", "a?b", "a%2F", "a:b"})
        EXPECT_FALSE(couldNameContainerOrPod(name)) << '"' << name << '"';
}

TEST(IsFullId, SixtyFourLowercaseHexDigitsOnly)
{
    EXPECT_TRUE(isFullId(kId));
    EXPECT_FALSE(isFullId(std::string(kId).substr(1)));
    EXPECT_FALSE(isFullId(std::string(kId) + "0"));
    std::string upper(kId);
    upper[0] = 'B';
    EXPECT_FALSE(isFullId(upper));
    EXPECT_FALSE(isFullId(""));
}
