// The pure parts behind resizectl's messages in the user's words.

#include <gtest/gtest.h>

#include "arguments.h"
#include "autoscale_options.h"
#include "events.h"
#include "id_prefix.h"
#include "quantity_format.h"
#include "status_format.h"
#include "suggestion.h"
#include "table.h"

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
    EXPECT_EQ(nearestWord("-x", {"-h", "-H", "-M", "--json"}), std::nullopt);
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

TEST(IdPrefix, OnlyAShortRunOfHexDigitsIsExpanded)
{
    EXPECT_TRUE(isShortIdPrefix("551c51"));
    EXPECT_TRUE(isShortIdPrefix("5"));
    EXPECT_FALSE(isShortIdPrefix("551c51a0f3e2"));  // the daemon's own
    EXPECT_FALSE(isShortIdPrefix("web"));
    EXPECT_FALSE(isShortIdPrefix("551C51"));  // Podman's IDs are lower case
    EXPECT_FALSE(isShortIdPrefix(""));
}

TEST(IdPrefix, MatchesEveryIdItBeginsUnlessAWorkloadHasThatName)
{
    const std::vector<WorkloadContainer> workloads{
        {"web", "551c51a0f3e2aa"}, {"db", "551d00b7c3e1bb"}, {"unit:nginx.service", ""}, {"cafe", "0123"}};
    EXPECT_EQ(idPrefixMatches("551c", workloads), (std::vector<WorkloadContainer>{{"web", "551c51a0f3e2aa"}}));
    EXPECT_EQ(idPrefixMatches("551", workloads).size(), 2u);
    EXPECT_TRUE(idPrefixMatches("f", workloads).empty());
    EXPECT_TRUE(idPrefixMatches("cafe", workloads).empty());  // a name wins
}

TEST(PodmanCpus, FinerThanAMillicoreIsRoundedToTheNearest)
{
    EXPECT_EQ(parsePodmanCpus("1.5"), 1500u);
    EXPECT_EQ(parsePodmanCpus("250m"), 250u);
    EXPECT_EQ(parsePodmanCpus("1.23456"), 1235u);
    EXPECT_EQ(parsePodmanCpus("1.2344"), 1234u);
    EXPECT_EQ(parsePodmanCpus("0.0005"), 1u);
    EXPECT_EQ(parsePodmanCpus("0.0001"), 1u);  // at least the smallest limit
    EXPECT_EQ(parsePodmanCpus("0"), 0u);       // for the range check to refuse
    EXPECT_EQ(parsePodmanCpus("1.5x"), std::nullopt);
    EXPECT_EQ(parsePodmanCpus("0-1"), std::nullopt);
}

TEST(ReadableSizes, TheDaemonsKibibytesBecomeReadable)
{
    EXPECT_EQ(readableSizes("asked 97656250000Ki memory, more than this node's allocatable 24421640Ki"),
              "asked 90.9Ti memory, more than this node's allocatable 23.3Gi");
    EXPECT_EQ(readableSizes("memory usage 103372Ki stays above the requested memory.max 64Mi"),
              "memory usage 100.9Mi stays above the requested memory.max 64Mi");
    EXPECT_EQ(readableSizes("pool b2Ki: asked 1500m CPU"), "pool b2Ki: asked 1500m CPU");
    EXPECT_EQ(readableSizes("no sizes 12 here"), "no sizes 12 here");
}

TEST(ReadableSizes, TheDaemonsMessagesAreShownReadable)
{
    const std::string message = "memory usage 103372Ki stays above the requested memory.max 64Mi";
    const Dictionary status{{"Workload", sdbus::Variant(std::string("web"))},
                            {"Message", sdbus::Variant(message)}};
    EXPECT_NE(formatStatusBlock(status, Clock::now()).find("memory usage 100.9Mi stays above"), std::string::npos);
    EXPECT_NE(updateFailedEvent(Clock::now(), "web", "MemoryInUse", message).text.find("100.9Mi"),
              std::string::npos);
}

TEST(FormatMemoryLike, AnswersInTheUnitsTyped)
{
    const uint64_t fourMi = 4ull << 20;
    EXPECT_EQ(formatMemoryLike(fourMi, "1Mi"), "4Mi");
    EXPECT_EQ(formatMemoryLike(fourMi, "1m"), "4m");
    EXPECT_EQ(formatMemoryLike(fourMi, "1mb"), "4m");
    EXPECT_EQ(formatMemoryLike(fourMi, "1M"), "4M");
    EXPECT_EQ(formatMemoryLike(fourMi, "1048576"), "4194304");
    EXPECT_EQ(formatMemoryLike(1ull << 60, "2Ei"), "1Ei");
}

TEST(AutoscaleInvalidity, IsSaidInTheOptionsWords)
{
    EXPECT_EQ(invalidityInOptionTerms("IntervalUSec 1000 is below 10000"), "--interval 1ms is below 10ms");
    EXPECT_EQ(invalidityInOptionTerms("CpuMinMillis 2000 is above CpuMaxMillis 1000"),
              "--cpu-min 2 is above --cpu-max 1");
    EXPECT_EQ(invalidityInOptionTerms("MemoryMinBytes 2147483648 is above MemoryMaxBytes 1073741824"),
              "--memory-min 2Gi is above --memory-max 1Gi");
}

TEST(AutoscaleArguments, WhatIsNotGivenStaysAsThePolicyInForceHasIt)
{
    core::autoscale::Policy inForce;
    inForce.cpu = core::autoscale::Target{70, 500, 2000};
    inForce.memory = core::autoscale::Target{80, 0, 1ull << 30};
    inForce.scaleDown.stabilization = std::chrono::minutes(10);

    AutoscaleArguments modeOnly;
    modeOnly.mode = core::autoscale::Mode::Recommend;
    core::autoscale::Policy expected = inForce;
    expected.mode = core::autoscale::Mode::Recommend;
    EXPECT_EQ(modeOnly.policy(inForce), expected);

    AutoscaleArguments newMax;
    newMax.cpuMax = 4000;
    EXPECT_EQ(newMax.policy(inForce).cpu, (core::autoscale::Target{70, 500, 4000}));
    EXPECT_EQ(newMax.boundWithoutTarget(inForce), std::nullopt);
    EXPECT_EQ(newMax.boundWithoutTarget(), "--cpu-max needs a CPU target: give --cpu-target");
}

TEST(Table, MinimumWidthsKeepColumnsInPlace)
{
    Table wide({"NAME", "CPU"});
    wide.addRow({"a-long-name", "1"});
    Table narrow({"NAME", "CPU"});
    narrow.addRow({"a", "1"});
    narrow.setMinimumWidths(wide.columnWidths(true));
    EXPECT_EQ(narrow.render(true), "NAME        CPU\na           1\n");
}

}  // namespace
}  // namespace resized::ctl
