// Hostile input over the real bus, to every Manager method and to the
// Workload object: arguments of the wrong types, names no container can
// have, quantities at and beyond the edges, unknown and repeated keys,
// malformed CPU lists and options. Each gets the documented error and leaves
// the container's cgroup, the store and the daemon as they were.

#include "hostile_test.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace resized::integration
{
namespace
{

using Entries = std::vector<std::pair<std::string, sdbus::Variant>>;

constexpr std::uint64_t uint64Max = std::numeric_limits<std::uint64_t>::max();
constexpr std::size_t hugeLength = 64 * 1024;

using HostileInputTest = HostileTest;

TEST_F(HostileInputTest, WrongSignaturesAreRefusedBeforeTheDaemonSeesThem)
{
    const Dictionary resources = ResourceValues{.cpuMillis = 400}.toDictionary();
    const std::map<std::string, std::string> textMap{{"CpuMillis", "400"}};
    struct Case
    {
        const char* what;
        std::function<std::string()> send;
    };
    const std::vector<Case> cases{
        {"UpdateResources()", [&] { return managerCall("UpdateResources").send(); }},
        {"UpdateResources(s)", [&] { return (managerCall("UpdateResources") << name()).send(); }},
        {"UpdateResources(u a{sv} a{sv})",
         [&] { return (managerCall("UpdateResources") << 7U << resources << Dictionary{}).send(); }},
        {"UpdateResources(s a{ss} a{sv})",
         [&] { return (managerCall("UpdateResources") << name() << textMap << Dictionary{}).send(); }},
        {"UpdateResources(s a{sv} a{sv} s)",
         [&] {
             return (managerCall("UpdateResources")
                              << name() << resources << Dictionary{} << name()).send();
         }},
        {"ValidateResourceUpdate(t)",
         [&] { return (managerCall("ValidateResourceUpdate") << std::uint64_t{1}).send(); }},
        {"ValidateResourceUpdate(s a{sv} a{sv})",
         [&] {
             return (managerCall("ValidateResourceUpdate")
                              << name() << resources << Dictionary{}).send();
         }},
        {"GetResourceStatus(u)", [&] { return (managerCall("GetResourceStatus") << 1U).send(); }},
        {"GetResourceStatus(as)",
         [&] {
             return (managerCall("GetResourceStatus") << std::vector<std::string>{name()}).send();
         }},
        {"ListWorkloads(s)", [&] { return (managerCall("ListWorkloads") << name()).send(); }},
        {"GetMetrics(s)", [&] { return (managerCall("GetMetrics") << name()).send(); }},
        {"SetAutoscalePolicy(s)", [&] { return (managerCall("SetAutoscalePolicy") << name()).send(); }},
        {"SetAutoscalePolicy(s a{sv} a{sv})",
         [&] { return (managerCall("SetAutoscalePolicy") << name() << Dictionary{} << Dictionary{}).send(); }},
        {"RemoveAutoscalePolicy(u)", [&] { return (managerCall("RemoveAutoscalePolicy") << 1U).send(); }},
        {"ReportMetrics(s a{ss})", [&] { return (managerCall("ReportMetrics") << name() << textMap).send(); }},
        {"SetPool(s)", [&] { return (managerCall("SetPool") << name()).send(); }},
        {"SetPool(s a{ss})", [&] { return (managerCall("SetPool") << name() << textMap).send(); }},
        {"RemovePool(u)", [&] { return (managerCall("RemovePool") << 1U).send(); }},
        {"ListPools(s)", [&] { return (managerCall("ListPools") << name()).send(); }},
        {"SubmitPlan(s)", [&] { return (managerCall("SubmitPlan") << name()).send(); }},
        {"SubmitPlan(a{ss} a{sv})",
         [&] { return (managerCall("SubmitPlan") << textMap << Dictionary{}).send(); }},
        {"ListPlans(s)", [&] { return (managerCall("ListPlans") << name()).send(); }},
        {"ListNodeWorkloads(s)", [&] { return (managerCall("ListNodeWorkloads") << name()).send(); }},
        {"Reconcile(i)", [&] { return (managerCall("Reconcile") << 1).send(); }},
        {"Reconcile(s s)", [&] { return (managerCall("Reconcile") << name() << name()).send(); }},
        {"Forget()", [&] { return managerCall("Forget").send(); }},
        {"Forget(b)", [&] { return (managerCall("Forget") << true).send(); }},
        {"Workload.Update(s a{sv} a{sv})",
         [&] { return (workloadCall("Update") << name() << resources << Dictionary{}).send(); }},
        {"Workload.Update(a{sv})", [&] { return (workloadCall("Update") << resources).send(); }},
        {"Workload.Reconcile(s)", [&] { return (workloadCall("Reconcile") << name()).send(); }},
        {"Workload.Forget(s)", [&] { return (workloadCall("Forget") << name()).send(); }},
    };
    for (const auto& testCase : cases)
    {
        EXPECT_EQ(testCase.send(), error::invalidArgs) << testCase.what;
    }
    EXPECT_EQ(managerCall("DropAllLimits").send(), error::unknownMethod);

    expectUntouched();
}

// Names that cannot be a container: empty, path-like, control characters,
// URL syntax that would change the Podman request if pasted into it, and
// 64 KiB long ones.
std::vector<std::string> hostileNames(const std::string& existing)
{
    std::string repeatedDotDot;
    while (repeatedDotDot.size() < hugeLength)
    {
        repeatedDotDot += "../";
    }
    return {
        "..",
        "../..",
        "/",
        ".",
        "/etc/passwd",
        "a/../b",
        existing + "/..",
        "../" + existing,
        existing + "?all=true",
        existing + "#",
        existing + "/json",
        "%2e%2e",
        " " + existing,
        existing + " ",
        existing + "\n",
        "\x01\x02\x7f",
        "\x1b[31mred",
        "-" + existing,
        std::string(hugeLength, 'a'),
        existing + std::string(hugeLength, 'x'),
        repeatedDotDot,
    };
}

// The start of name with control characters escaped, for test messages.
std::string printable(const std::string& name)
{
    static constexpr char hexDigits[] = "0123456789abcdef";
    std::string shown;
    for (const unsigned char c : name.substr(0, 40))
    {
        if (c >= 0x20 && c < 0x7f)
        {
            shown += static_cast<char>(c);
            continue;
        }
        shown += "\\x";
        shown += hexDigits[c >> 4];
        shown += hexDigits[c & 0xf];
    }
    return shown;
}

TEST_F(HostileInputTest, HostileNamesNameNoWorkload)
{
    const Dictionary resources = ResourceValues{.cpuMillis = 400}.toDictionary();
    for (const std::string& workload : hostileNames(name()))
    {
        SCOPED_TRACE("name of " + std::to_string(workload.size()) + " bytes: " +
                     printable(workload));
        EXPECT_EQ(errorNameOf([&] { client().getResourceStatus(workload); }),
                  error::noSuchWorkload);
        EXPECT_EQ(errorNameOf([&] { client().updateResources(workload, resources); }),
                  error::noSuchWorkload);
        EXPECT_EQ(errorNameOf([&] { client().validateResourceUpdate(workload, resources); }),
                  error::noSuchWorkload);
        EXPECT_EQ(errorNameOf([&] { client().reconcile(workload); }), error::noSuchWorkload);
        EXPECT_EQ(errorNameOf([&] { client().forget(workload); }), error::noSuchWorkload);
    }

    expectUntouched();
}

TEST_F(HostileInputTest, EmptyNameIsInvalidArgument)
{
    const Dictionary resources = ResourceValues{.cpuMillis = 400}.toDictionary();

    EXPECT_EQ(errorNameOf([&] { client().getResourceStatus(""); }), error::invalidArgument);
    EXPECT_EQ(errorNameOf([&] { client().updateResources("", resources); }),
              error::invalidArgument);
    EXPECT_EQ(errorNameOf([&] { client().validateResourceUpdate("", resources); }),
              error::invalidArgument);
    EXPECT_EQ(errorNameOf([&] { client().forget(""); }), error::invalidArgument);

    expectUntouched();
}

// Requests that every method taking a resource dictionary must refuse.
class RefusalTest : public HostileTest
{
  protected:
    // Sends entries (and options) to UpdateResources, with and without
    // DryRun, to the Workload's Update and, without options, to
    // ValidateResourceUpdate: each must answer InvalidArgument.
    void expectRefusedEverywhere(const std::string& what, const Entries& entries,
                                 const Entries& options = {})
    {
        SCOPED_TRACE(what);
        EXPECT_EQ((managerCall("UpdateResources") << name())
                      .appendDictionary(entries)
                      .appendDictionary(options)
                      .send(),
                  error::invalidArgument);

        Entries dryRunOptions = options;
        dryRunOptions.emplace_back("DryRun", sdbus::Variant(true));
        EXPECT_EQ((managerCall("UpdateResources") << name())
                      .appendDictionary(entries)
                      .appendDictionary(dryRunOptions)
                      .send(),
                  error::invalidArgument);

        EXPECT_EQ(workloadCall("Update").appendDictionary(entries).appendDictionary(options).send(),
                  error::invalidArgument);

        if (options.empty())
        {
            EXPECT_EQ((managerCall("ValidateResourceUpdate") << name()).appendDictionary(entries).send(),
                      error::invalidArgument);
        }
    }
};

TEST_F(RefusalTest, QuantitiesOutOfRange)
{
    const std::vector<std::pair<const char*, std::vector<std::uint64_t>>> outOfRange{
        {"CpuMillis", {0, 10'000'001, std::uint64_t{1} << 63, uint64Max - 1}},
        {"MemoryMax", {0, 4 * mebibyte - 1, (std::uint64_t{1} << 60) + 1, uint64Max - 1}},
        {"MemoryHigh", {0, 1, (std::uint64_t{1} << 60) + 1, uint64Max - 1}},
        {"CpuWeight", {0, 10'001, uint64Max}},
    };
    for (const auto& [key, values] : outOfRange)
    {
        for (const std::uint64_t value : values)
        {
            expectRefusedEverywhere(std::string(key) + "=" + std::to_string(value),
                                    {{key, sdbus::Variant(value)}});
        }
    }

    expectUntouched();
}

TEST_F(RefusalTest, WrongVariantTypes)
{
    const std::vector<std::pair<const char*, sdbus::Variant>> wrongTypes{
        {"CpuMillis", sdbus::Variant(std::uint32_t{500})},
        {"CpuMillis", sdbus::Variant(std::int64_t{500})},
        {"CpuMillis", sdbus::Variant(std::int32_t{-1})},
        {"CpuMillis", sdbus::Variant(500.0)},
        {"CpuMillis", sdbus::Variant(std::string("500m"))},
        {"CpuMillis", sdbus::Variant(true)},
        {"MemoryMax", sdbus::Variant(std::vector<std::uint64_t>{256 * mebibyte})},
        {"MemoryHigh", sdbus::Variant(Dictionary{{"MemoryHigh", sdbus::Variant(256 * mebibyte)}})},
        {"CpuWeight", sdbus::Variant(std::uint8_t{100})},
        {"AllowedCpus", sdbus::Variant(std::uint64_t{1})},
        {"AllowedCpus", sdbus::Variant(std::vector<std::string>{"0"})},
        {"AllowedCpus", sdbus::Variant(sdbus::ObjectPath("/0"))},
    };
    for (const auto& [key, value] : wrongTypes)
    {
        expectRefusedEverywhere(std::string(key) + " of type " + value.peekValueType(),
                                {{key, value}});
    }

    expectUntouched();
}

TEST_F(RefusalTest, UnknownKeys)
{
    for (const std::string& key :
         {std::string("cpumillis"), std::string("CpuMillis "), std::string(""),
          std::string("CpuQuota"), std::string("cpu.max"), std::string(hugeLength, 'K')})
    {
        expectRefusedEverywhere("key \"" + key.substr(0, 20) + "\"",
                                {{key, sdbus::Variant(std::uint64_t{500})}});
    }

    expectUntouched();
}

TEST_F(RefusalTest, MalformedCpuLists)
{
    for (const std::string cpus :
         {"1-", "3-1", "99999", "0,,1", "-1", "0-", ",", "0-3,", "a", "0x1", "1 2", "+1",
          "8192", "0-99999", "1-2-3", "0;1", "\t,", "4294967296", "00000000000000000000001-"})
    {
        expectRefusedEverywhere("AllowedCpus \"" + cpus + "\"",
                                {{"AllowedCpus", sdbus::Variant(cpus)}});
    }

    expectUntouched();
}

TEST_F(RefusalTest, UnknownOptionsAndOptionsOfWrongTypes)
{
    const Entries change{{"CpuMillis", sdbus::Variant(std::uint64_t{400})}};
    const std::vector<std::pair<const char*, sdbus::Variant>> badOptions{
        {"Hurry", sdbus::Variant(true)},
        {"dryrun", sdbus::Variant(true)},
        {"", sdbus::Variant(true)},
        {"DryRun", sdbus::Variant(std::string("true"))},
        {"DryRun", sdbus::Variant(std::uint32_t{1})},
        {"Force", sdbus::Variant(std::int32_t{1})},
        {"Defer", sdbus::Variant(std::uint64_t{1})},
        {"ReclaimTimeoutUSec", sdbus::Variant(std::int64_t{-1})},
        {"ReclaimTimeoutUSec", sdbus::Variant(false)},
        {"ReclaimTimeoutUSec", sdbus::Variant(std::string("5s"))},
    };
    for (const auto& [key, value] : badOptions)
    {
        expectRefusedEverywhere(
                                "option \"" + std::string(key) + "\" of type " +
                                    value.peekValueType(),
                                change, {{key, value}});
    }

    expectUntouched();
}

TEST_F(RefusalTest, RepeatedKeyWithInvalidValues)
{
    expectRefusedEverywhere("CpuWeight twice, both out of range",
                            {{"CpuWeight", sdbus::Variant(std::uint64_t{0})},
                             {"CpuWeight", sdbus::Variant(std::uint64_t{10'001})}});
    expectRefusedEverywhere("AllowedCpus twice, wrong type first",
                            {{"AllowedCpus", sdbus::Variant(std::uint64_t{0})},
                             {"AllowedCpus", sdbus::Variant(std::string("0"))}});

    expectUntouched();
}

// A dictionary holding a key twice is not refused: docs/dbus-api.md says the
// first entry counts, and that is what the cgroup and the status must hold.
TEST_F(HostileInputTest, RepeatedKeyAppliesItsFirstValue)
{
    ASSERT_EQ((managerCall("UpdateResources") << name())
                  .appendDictionary({{"CpuMillis", sdbus::Variant(std::uint64_t{400})},
                                     {"CpuMillis", sdbus::Variant(std::uint64_t{500})}})
                  .appendDictionary({})
                  .send(),
              "");

    const Dictionary status = client().getResourceStatus(name());
    EXPECT_EQ(desiredOf(status).cpuMillis, 400U);
    EXPECT_EQ(CgroupLimits::read(container().cgroupPath()).cpuMillis(), 400U);
    EXPECT_EQ(actualOf(status).cpuMillis, 400U);
    EXPECT_TRUE(daemon().running());
}

TEST_F(HostileInputTest, NoLimitIsAcceptedOnlyWhereTheContractAllowsIt)
{
    const auto [allowed, reason] = client().validateResourceUpdate(
        name(), ResourceValues{.cpuMillis = noLimit, .memoryMax = noLimit, .memoryHigh = noLimit}
                    .toDictionary());
    EXPECT_TRUE(allowed) << reason;
    EXPECT_EQ(errorNameOf([&] {
                  client().validateResourceUpdate(
                      name(), ResourceValues{.cpuWeight = noLimit}.toDictionary());
              }),
              error::invalidArgument);

    expectUntouched();
}

} // namespace
} // namespace resized::integration
