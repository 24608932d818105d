// The resizectl binary on its own: what it decides before ever talking to
// the daemon. Runs without a bus; the bus address points nowhere.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <array>

#include "build_config.h"
#include "support/command.h"

namespace resized::ctl {
namespace {

using integration::CommandResult;
using ::testing::HasSubstr;
using ::testing::StartsWith;

CommandResult resizectl(const std::vector<std::string>& arguments)
{
    std::vector<std::string> argv{RESIZECTL_BINARY};
    argv.insert(argv.end(), arguments.begin(), arguments.end());
    return integration::runCommand(argv, {"DBUS_SYSTEM_BUS_ADDRESS=unix:path=/nonexistent/bus.sock"});
}

// Every verb.
constexpr std::array kVerbs{"status",  "list",    "set",       "validate", "node",   "reconcile", "forget", "history",
                            "metrics", "watch",   "autoscale", "report",   "pool",   "plan",      "top"};

TEST(ResizectlCli, HelpNamesEveryVerbAndTheExitStatuses)
{
    const auto result = resizectl({"--help"});

    EXPECT_EQ(result.exitStatus, 0);
    for (const char* verb : kVerbs)
        EXPECT_THAT(result.standardOutput, HasSubstr(std::string("\n  ") + verb + " ")) << verb;
    EXPECT_THAT(result.standardOutput, HasSubstr("12 resized not running"));
    EXPECT_THAT(result.standardOutput, HasSubstr("14 no such pool"));
    EXPECT_THAT(result.standardOutput, HasSubstr("16 no such plan, 17 plan outdated, 18 plan cancelled"));
}

TEST(ResizectlCli, EveryVerbHasHelp)
{
    for (const char* verb : kVerbs) {
        const auto result = resizectl({verb, "--help"});
        EXPECT_EQ(result.exitStatus, 0) << verb;
        EXPECT_THAT(result.standardOutput, HasSubstr(std::string("Usage: resizectl ") + verb)) << verb;
    }
}

// The units and the exit statuses are what a user of any one verb needs.
TEST(ResizectlCli, EveryVerbsHelpEndsWithQuantitiesAndExitStatuses)
{
    std::vector<std::vector<std::string>> commands;
    for (const char* verb : kVerbs)
        commands.push_back({verb, "--help"});
    commands.push_back({"autoscale", "set", "--help"});
    commands.push_back({"pool", "set", "--help"});
    commands.push_back({"plan", "submit", "--help"});
    for (const auto& command : commands) {
        const auto result = resizectl(command);
        EXPECT_THAT(result.standardOutput, HasSubstr("\nQuantities: CPU as 1.5, 1500m or 2")) << command[0];
        EXPECT_THAT(result.standardOutput, HasSubstr("18 plan cancelled.\nSee resizectl(1).\n")) << command[0];
    }
}

TEST(ResizectlCli, AMisspeltVerbIsNamedWithTheNearestOne)
{
    const auto typo = resizectl({"stauts", "web"});
    EXPECT_EQ(typo.exitStatus, 2);
    EXPECT_EQ(typo.standardError,
              "resizectl: unknown command 'stauts'; did you mean 'status'? See 'resizectl --help'.\n");

    const auto otherTools = resizectl({"monitor"});
    EXPECT_EQ(otherTools.exitStatus, 2);
    EXPECT_EQ(otherTools.standardError,
              "resizectl: unknown command 'monitor'; did you mean 'watch'? See 'resizectl --help'.\n");

    const auto nothingNear = resizectl({"frobnicate"});
    EXPECT_EQ(nothingNear.exitStatus, 2);
    EXPECT_EQ(nothingNear.standardError, "resizectl: unknown command 'frobnicate'. See 'resizectl --help'.\n");

    const auto subVerb = resizectl({"autoscale", "stat", "web"});
    EXPECT_EQ(subVerb.exitStatus, 2);
    EXPECT_EQ(subVerb.standardError, "resizectl: unknown command 'stat' for 'resizectl autoscale'; did you mean "
                                     "'status'? See 'resizectl autoscale --help'.\n");
}

TEST(ResizectlCli, AMisspeltOptionIsNamedWithTheNearestOne)
{
    const auto typo = resizectl({"set", "web", "--memroy", "1g"});
    EXPECT_EQ(typo.exitStatus, 2);
    EXPECT_EQ(typo.standardError, "resizectl: unknown option '--memroy' for 'resizectl set'; did you mean "
                                  "'--memory'? See 'resizectl set --help'.\n");
    const auto global = resizectl({"list", "--jsno"});
    EXPECT_EQ(global.exitStatus, 2);
    EXPECT_THAT(global.standardError, HasSubstr("did you mean '--json'?"));
}

// Out of range is an invalid argument, as the daemon would answer, but in
// the flag and the units the user typed, and without a bus.
TEST(ResizectlCli, ValuesOutOfRangeAreNamedInTheUsersWords)
{
    const auto noCpu = resizectl({"set", "web", "--cpus", "0"});
    EXPECT_EQ(noCpu.exitStatus, 4);
    EXPECT_EQ(noCpu.standardError,
              "resizectl: --cpus 0: below the smallest CPU limit, 0.001 CPUs (1m); 'max' for none\n");
    const auto podmanUnits = resizectl({"set", "web", "--memory", "1m"});
    EXPECT_EQ(podmanUnits.exitStatus, 4);
    EXPECT_EQ(podmanUnits.standardError,
              "resizectl: --memory 1m: below the smallest memory limit, 4m; 'max' for none\n");
    const auto kubernetesUnits = resizectl({"validate", "web", "--memory-high", "1Mi"});
    EXPECT_EQ(kubernetesUnits.exitStatus, 4);
    EXPECT_EQ(kubernetesUnits.standardError,
              "resizectl: --memory-high 1Mi: below the smallest memory limit, 4Mi; 'max' for none\n");
    const auto systemdUnits = resizectl({"set", "web", "MemoryMax=1M"});
    EXPECT_EQ(systemdUnits.exitStatus, 4);
    EXPECT_EQ(systemdUnits.standardError,
              "resizectl: MemoryMax=1M: below the smallest memory limit, 4M; 'max' for none\n");
    const auto tooMany = resizectl({"set", "web", "--cpus", "20000"});
    EXPECT_EQ(tooMany.exitStatus, 4);
    EXPECT_EQ(tooMany.standardError, "resizectl: --cpus 20000: above the largest CPU limit, 10000 CPUs\n");
}

// Podman takes these; resized keeps whole millicores and says so.
TEST(ResizectlCli, CpusFinerThanAMillicoreAreRoundedAloud)
{
    const auto fine = resizectl({"set", "web", "--cpus", "1.23456"});
    EXPECT_EQ(fine.exitStatus, 1);  // as far as the bus, which is not there
    EXPECT_THAT(fine.standardError,
                StartsWith("resizectl: note: --cpus 1.23456: rounded to 1.235 CPUs (1235m); resized keeps CPU "
                           "limits in whole millicores\n"));
    const auto tiny = resizectl({"set", "web", "--cpus", "0.0005"});
    EXPECT_THAT(tiny.standardError, StartsWith("resizectl: note: --cpus 0.0005: rounded to 0.001 CPUs (1m)"));
    const auto quota = resizectl({"validate", "web", "--cpu-quota", "150000"});
    EXPECT_EQ(quota.exitStatus, 1);
    EXPECT_THAT(quota.standardError, StartsWith("resizectl: cannot connect"));
    // Exact values are not rounded, whoever's words they are in.
    for (const char* exact : {"CPUQuota=150%", "cpus=1.5", "CPUQuota=12.5%"})
        EXPECT_THAT(resizectl({"set", "web", exact}).standardError, StartsWith("resizectl: cannot connect"))
            << exact;
    const auto planned = resizectl({"plan", "submit", "web", "cpus=1.23456"});
    EXPECT_THAT(planned.standardError, StartsWith("resizectl: note: web: cpus=1.23456: rounded to 1.235 CPUs"));
    const auto oddPeriod = resizectl({"set", "web", "--cpu-quota", "100000", "--cpu-period", "300000"});
    EXPECT_THAT(oddPeriod.standardError,
                StartsWith("resizectl: note: --cpu-quota 100000 --cpu-period 300000: rounded to 0.333 CPUs (333m)"));
}

TEST(ResizectlCli, PodmanFlagsWithoutAMeaningHereSayWhy)
{
    const auto periodAlone = resizectl({"set", "web", "--cpu-period", "50000"});
    EXPECT_EQ(periodAlone.exitStatus, 2);
    EXPECT_THAT(periodAlone.standardError, HasSubstr("--cpu-period: a period alone changes no limit"));
    const auto reservation = resizectl({"set", "web", "--memory-reservation", "1g"});
    EXPECT_EQ(reservation.exitStatus, 2);
    EXPECT_THAT(reservation.standardError,
                HasSubstr("--memory-reservation: resized does not manage memory.low, the protection from reclaim "
                          "Podman writes for it on cgroup v2; the nearest is --memory-high"));
    const auto swap = resizectl({"set", "web", "--memory-swap", "2g"});
    EXPECT_EQ(swap.exitStatus, 2);
    EXPECT_THAT(swap.standardError, HasSubstr("--memory-swap: resized does not limit swap"));
    EXPECT_EQ(resizectl({"set", "web", "--cpus", "1", "--cpu-quota", "100000"}).exitStatus, 2);
}

TEST(ResizectlCli, VersionIsTheProjects)
{
    const auto result = resizectl({"--version"});
    EXPECT_EQ(result.exitStatus, 0);
    EXPECT_EQ(result.standardOutput, RESIZED_VERSION "\n");
}

TEST(ResizectlCli, SetWithoutAResourceIsAUsageError)
{
    const auto result = resizectl({"set", "web"});
    EXPECT_EQ(result.exitStatus, 2);
    EXPECT_THAT(result.standardError, HasSubstr("--cpu"));
}

TEST(ResizectlCli, UnreadableQuantitiesAreUsageErrors)
{
    EXPECT_EQ(resizectl({"set", "web", "--cpu", "1.5x"}).exitStatus, 2);
    EXPECT_EQ(resizectl({"set", "web", "--memory", "lots"}).exitStatus, 2);
    EXPECT_EQ(resizectl({"set", "web", "--cpus", "0-1"}).exitStatus, 2);
    EXPECT_EQ(resizectl({"set", "web", "--cpuset-cpus", "3-1"}).exitStatus, 2);
    EXPECT_EQ(resizectl({"set", "web", "--cpu-shares", "0"}).exitStatus, 2);
    EXPECT_EQ(resizectl({"set", "web", "--cpu", "1", "--reclaim-timeout", "soon"}).exitStatus, 2);
    EXPECT_EQ(resizectl({"validate", "web", "--cpu-weight", "heavy"}).exitStatus, 2);
}

// Accepted arguments get as far as the bus, which is not there: status 1.
TEST(ResizectlCli, PodmansFlagsAreAccepted)
{
    const auto result = resizectl({"set", "web", "--cpus", "1.5", "-m", "1g", "--cpu-shares", "512",
                                   "--cpuset-cpus", "0", "--memory-high", "768m"});
    EXPECT_EQ(result.exitStatus, 1);
    EXPECT_THAT(result.standardError, StartsWith("resizectl: cannot connect to the system bus"));
    EXPECT_EQ(resizectl({"validate", "web", "-c", "2048", "--memory", "1.5Gi"}).exitStatus, 1);
}

TEST(ResizectlCli, SystemdAssignmentsAreAccepted)
{
    EXPECT_EQ(resizectl({"set", "web", "CPUQuota=150%", "MemoryMax=1G", "MemoryHigh=", "CPUWeight=",
                         "AllowedCPUs=0-1"}).exitStatus,
              1);
    EXPECT_EQ(resizectl({"validate", "web", "--memory", "1g", "CPUQuota=50%"}).exitStatus, 1);
}

TEST(ResizectlCli, AnUnreadableAssignmentIsAUsageErrorNamingIt)
{
    const auto quota = resizectl({"set", "web", "CPUQuota=fast"});
    EXPECT_EQ(quota.exitStatus, 2);
    EXPECT_THAT(quota.standardError, StartsWith("CPUQuota=fast: not a percentage"));

    const auto property = resizectl({"set", "web", "IOWeight=100"});
    EXPECT_EQ(property.exitStatus, 2);
    EXPECT_THAT(property.standardError, StartsWith("IOWeight= is not a property resizectl sets"));

    EXPECT_EQ(resizectl({"set", "web", "MemoryMax=50%"}).exitStatus, 2);
    EXPECT_EQ(resizectl({"set", "web", "CPUQuota=12.34%"}).exitStatus, 2);
    EXPECT_EQ(resizectl({"set", "web", "fast"}).exitStatus, 2);
}

TEST(ResizectlCli, NamingAResourceTwiceIsAUsageError)
{
    const auto result = resizectl({"set", "web", "--cpus", "1", "CPUQuota=150%"});
    EXPECT_EQ(result.exitStatus, 2);
    EXPECT_THAT(result.standardError, HasSubstr("CPUQuota=150%: sets what another option or assignment already sets"));
    EXPECT_EQ(resizectl({"set", "web", "MemoryMax=1G", "MemoryMax=2G"}).exitStatus, 2);
    EXPECT_EQ(resizectl({"set", "web", "--cpu-shares", "1024", "--cpu-weight", "100"}).exitStatus, 2);
}

// A slice is its own CPUs without a quota: the CPU limit and the CPU list
// are not asked with it.
TEST(ResizectlCli, ExclusiveCpusAreAWholeNumberAskedAlone)
{
    EXPECT_EQ(resizectl({"set", "web", "--exclusive-cpus", "2", "-m", "1g"}).exitStatus, 1);
    EXPECT_EQ(resizectl({"set", "web", "exclusive-cpus=0"}).exitStatus, 1);
    EXPECT_EQ(resizectl({"set", "web", "--exclusive-cpus", "1.5"}).exitStatus, 2);
    EXPECT_EQ(resizectl({"set", "web", "--exclusive-cpus", "2", "--cpus", "2"}).exitStatus, 2);
    EXPECT_EQ(resizectl({"set", "web", "--exclusive-cpus", "2", "--cpuset-cpus", "0-1"}).exitStatus, 2);
}

TEST(ResizectlCli, HelpSaysWhichPodmanFlagEachOptionIs)
{
    const auto result = resizectl({"set", "--help"});
    EXPECT_EQ(result.exitStatus, 0);
    for (const char* flag : {"--cpus", "--memory", "--cpu-shares", "--cpuset-cpus"})
        EXPECT_THAT(result.standardOutput, HasSubstr(std::string("As podman update ") + flag)) << flag;
    EXPECT_THAT(result.standardOutput, HasSubstr("CPUQuota=150%"));
}

TEST(ResizectlCli, HostAndMachineAreCheckedBeforeConnecting)
{
    EXPECT_EQ(resizectl({"list", "-H"}).exitStatus, 2);
    EXPECT_EQ(resizectl({"-H", "", "list"}).exitStatus, 2);
    EXPECT_EQ(resizectl({"-M", "a/b", "list"}).exitStatus, 2);
    EXPECT_EQ(resizectl({"-M", "root@web", "list"}).exitStatus, 2);
    const auto both = resizectl({"-H", "node7", "-M", "web", "list"});
    EXPECT_EQ(both.exitStatus, 2);
    EXPECT_THAT(both.standardError, HasSubstr("--host excludes --machine"));
}

// ssh cannot resolve a name under .invalid (RFC 6761), so the connection
// fails without any network.
TEST(ResizectlCli, AnUnreachableHostIsAFailureNamingIt)
{
    const auto result = resizectl({"-H", "root@resized-test.invalid", "list"});
    EXPECT_EQ(result.exitStatus, 1);
    EXPECT_THAT(result.standardError, HasSubstr("ssh: Could not resolve hostname resized-test.invalid"));
    EXPECT_THAT(result.standardError,
                HasSubstr("resizectl: cannot connect to the system bus of root@resized-test.invalid (over ssh): "));

    const auto afterVerb = resizectl({"set", "web", "--cpus", "1", "--host", "resized-test.invalid"});
    EXPECT_EQ(afterVerb.exitStatus, 1);
    EXPECT_THAT(afterVerb.standardError, HasSubstr("system bus of resized-test.invalid (over ssh)"));
}

TEST(ResizectlCli, AMachineThatIsNotThereIsAFailureNamingIt)
{
    const auto result = resizectl({"-M", "resized-no-such-container", "status", "web"});
    EXPECT_EQ(result.exitStatus, 1);
    EXPECT_THAT(result.standardError,
                StartsWith("resizectl: cannot connect to the system bus of container resized-no-such-container: "));
}

TEST(ResizectlCli, UnknownVerbOrOptionIsAUsageError)
{
    EXPECT_EQ(resizectl({"frobnicate"}).exitStatus, 2);
    EXPECT_EQ(resizectl({"list", "--frobnicate"}).exitStatus, 2);
    EXPECT_EQ(resizectl({}).exitStatus, 2);
}

TEST(ResizectlCli, HistoryWantsAPositiveNumberOfLines)
{
    const auto none = resizectl({"history", "web", "-n", "0"});
    EXPECT_EQ(none.exitStatus, 2);
    EXPECT_THAT(none.standardError,
                HasSubstr("'0' is not a count of 1 or more; leave the option out for all the entries resized keeps"));
    EXPECT_EQ(resizectl({"history", "-n", "many"}).exitStatus, 2);
}

TEST(ResizectlCli, AutoscaleHasSetStatusAndRemove)
{
    EXPECT_EQ(resizectl({"autoscale"}).exitStatus, 2);
    for (const char* command : {"set", "status", "remove"}) {
        const auto help = resizectl({"autoscale", command, "--help"});
        EXPECT_EQ(help.exitStatus, 0) << command;
        EXPECT_THAT(help.standardOutput, HasSubstr(std::string("Usage: resizectl autoscale ") + command)) << command;
        EXPECT_EQ(resizectl({"autoscale", command}).exitStatus, 2) << command;
    }
    EXPECT_THAT(resizectl({"autoscale", "set", "--help"}).standardOutput,
                HasSubstr("resizectl autoscale set web --cpu-target 70"));
}

// With --reset there is no policy in force to look up: what the options say
// is all there is, and is judged without a bus.
TEST(ResizectlCli, AutoscaleBoundsWithoutTheirTargetAreUsageErrors)
{
    const auto result = resizectl({"autoscale", "set", "web", "--reset", "--cpu-min", "1"});
    EXPECT_EQ(result.exitStatus, 2);
    EXPECT_EQ(result.standardError, "resizectl: --cpu-min needs a CPU target: give --cpu-target\n");
    EXPECT_EQ(resizectl({"autoscale", "set", "web", "--reset", "--cpu-target", "70", "--memory-max", "1g"}).exitStatus,
              2);
    EXPECT_EQ(resizectl({"autoscale", "set", "web", "--cpu-target", "70", "--scale-up-policy", "fast"}).exitStatus,
              2);
    EXPECT_EQ(resizectl({"autoscale", "set", "web", "--memory-target", "80", "--mode", "manual"}).exitStatus, 2);
}

// Checked before the call, as the daemon would check it, in the options'
// words rather than the D-Bus keys.
TEST(ResizectlCli, AnUnsoundAutoscalePolicyIsAnInvalidArgument)
{
    const auto noTarget = resizectl({"autoscale", "set", "web", "--reset", "--interval", "5s"});
    EXPECT_EQ(noTarget.exitStatus, 4);
    EXPECT_THAT(noTarget.standardError, StartsWith("resizectl: invalid autoscale policy: "));
    EXPECT_EQ(resizectl({"autoscale", "set", "web", "--reset", "--cpu-target", "0"}).exitStatus, 4);
    const auto inverted =
        resizectl({"autoscale", "set", "web", "--reset", "--cpu-target", "70", "--cpu-min", "2", "--cpu-max", "1"});
    EXPECT_EQ(inverted.exitStatus, 4);
    EXPECT_EQ(inverted.standardError, "resizectl: invalid autoscale policy: --cpu-min 2 is above --cpu-max 1\n");
    const auto fast = resizectl({"autoscale", "set", "web", "--reset", "--cpu-target", "70", "--interval", "1ms"});
    EXPECT_EQ(fast.exitStatus, 4);
    EXPECT_EQ(fast.standardError, "resizectl: invalid autoscale policy: --interval 1ms is below 10ms\n");
    // A value wrong whatever the policy in force is judged without asking for it.
    const auto changed = resizectl({"autoscale", "set", "web", "--interval", "1ms"});
    EXPECT_EQ(changed.exitStatus, 4);
    EXPECT_EQ(changed.standardError, "resizectl: invalid autoscale policy: --interval 1ms is below 10ms\n");
    EXPECT_EQ(resizectl({"autoscale", "set", "web", "--tolerance", "1.5"}).exitStatus, 4);
}

// A limit is never used above 100%: such a target could only shrink it.
TEST(ResizectlCli, AnAutoscaleTargetAboveAHundredPercentIsExplained)
{
    const auto result = resizectl({"autoscale", "set", "web", "--cpu-target", "150"});
    EXPECT_EQ(result.exitStatus, 2);
    EXPECT_THAT(result.standardError,
                HasSubstr("--cpu-target: '150' is above 100%: usage never exceeds its limit, so such a target "
                          "would shrink the limit at every interval; give 1..100"));
    EXPECT_EQ(resizectl({"autoscale", "set", "web", "--memory-target", "101%"}).exitStatus, 2);
}

// Accepted arguments get as far as the bus, which is not there: status 1.
TEST(ResizectlCli, ASoundAutoscalePolicyIsSent)
{
    const auto result = resizectl({"autoscale", "set", "web", "--cpu-target", "70%", "--cpu-min", "500m",
                                   "--cpu-max", "4", "--memory-target", "80", "--memory-max", "1G",
                                   "--scale-down-policy", "percent:10:1min", "--scale-down-policy",
                                   "absolute:100:15s", "--mode", "recommend"});
    EXPECT_EQ(result.exitStatus, 1);
    EXPECT_THAT(result.standardError, StartsWith("resizectl: cannot connect to the system bus"));
}

TEST(ResizectlCli, PoolHasSetListStatusAndRemove)
{
    EXPECT_EQ(resizectl({"pool"}).exitStatus, 2);
    for (const char* command : {"set", "list", "status", "remove"}) {
        const auto help = resizectl({"pool", command, "--help"});
        EXPECT_EQ(help.exitStatus, 0) << command;
        EXPECT_THAT(help.standardOutput, HasSubstr(std::string("Usage: resizectl pool ") + command)) << command;
    }
    for (const char* command : {"set", "status", "remove"})
        EXPECT_EQ(resizectl({"pool", command}).exitStatus, 2) << command;
}

TEST(ResizectlCli, PoolCapsAreReadAsTheLimitsOfSet)
{
    EXPECT_EQ(resizectl({"pool", "set", "batch", "--cpus", "1.5x"}).exitStatus, 2);
    EXPECT_EQ(resizectl({"pool", "set", "batch", "--memory", "lots"}).exitStatus, 2);
    const auto result = resizectl({"pool", "set", "batch", "--cpus", "1500m", "-m", "max"});
    EXPECT_EQ(result.exitStatus, 1);
    EXPECT_THAT(result.standardError, StartsWith("resizectl: cannot connect to the system bus"));
}

// A budget is read before any call: one resizectl cannot read is status 4
// even without a bus; one it can read gets as far as the bus (status 1).
TEST(ResizectlCli, PoolBudgetsAreReadBeforeTheCall)
{
    const auto unreadable = resizectl({"pool", "set", "batch", "--budget", "2", "--budget", "2,10min"});
    EXPECT_EQ(unreadable.exitStatus, 4);
    EXPECT_THAT(unreadable.standardError, StartsWith("resizectl: --budget: '2,10min' is not a budget: "));
    EXPECT_EQ(resizectl({"pool", "set", "batch", "--budget", "2", "--no-budgets"}).exitStatus, 2);
    EXPECT_EQ(resizectl({"pool", "set", "batch", "--budget"}).exitStatus, 2);
    for (const std::vector<std::string>& budgets :
         {std::vector<std::string>{"--budget", "25%,period=1h30min", "--budget", "1,reasons=manual"},
          std::vector<std::string>{"--no-budgets"}}) {
        std::vector<std::string> arguments{"pool", "set", "batch"};
        arguments.insert(arguments.end(), budgets.begin(), budgets.end());
        const auto result = resizectl(arguments);
        EXPECT_EQ(result.exitStatus, 1) << budgets.front();
        EXPECT_THAT(result.standardError, StartsWith("resizectl: cannot connect to the system bus"));
    }
    EXPECT_THAT(resizectl({"pool", "set", "--help"}).standardOutput, HasSubstr("replace"));
}

TEST(ResizectlCli, PlanHasSubmitListStatusAndCancel)
{
    EXPECT_EQ(resizectl({"plan"}).exitStatus, 2);
    for (const char* command : {"submit", "list", "status", "cancel"}) {
        const auto help = resizectl({"plan", command, "--help"});
        EXPECT_EQ(help.exitStatus, 0) << command;
        EXPECT_THAT(help.standardOutput, HasSubstr(std::string("Usage: resizectl plan ") + command)) << command;
    }
    for (const char* command : {"submit", "status", "cancel"})
        EXPECT_EQ(resizectl({"plan", command}).exitStatus, 2) << command;
    EXPECT_EQ(resizectl({"plan", "status", "web"}).exitStatus, 2);
}

TEST(ResizectlCli, APlansChangesAreReadAsSetReadsResources)
{
    EXPECT_EQ(resizectl({"plan", "submit", "cpus=1"}).exitStatus, 2);
    EXPECT_EQ(resizectl({"plan", "submit", "web"}).exitStatus, 2);
    EXPECT_EQ(resizectl({"plan", "submit", "web", "cpus=1.5x"}).exitStatus, 2);
    EXPECT_EQ(resizectl({"plan", "submit", "web", "cpus=1", "web", "memory=1g"}).exitStatus, 2);
    EXPECT_EQ(resizectl({"plan", "submit", "--reason", "whim", "web", "cpus=1"}).exitStatus, 2);
    EXPECT_EQ(resizectl({"plan", "submit", "--expect", "web", "web", "cpus=1"}).exitStatus, 2);
    EXPECT_EQ(resizectl({"plan", "submit", "--file", "/nonexistent.json"}).exitStatus, 2);
    const auto result = resizectl({"plan", "submit", "--wait", "--delay", "1min", "--expect", "web=3", "--reason",
                                   "manual", "web", "cpus=500m", "memory=1g", "db", "CPUQuota=150%"});
    EXPECT_EQ(result.exitStatus, 1);
    EXPECT_THAT(result.standardError, StartsWith("resizectl: cannot connect to the system bus"));
}

TEST(ResizectlCli, SetTakesAPoolEvenAnEmptyOne)
{
    EXPECT_EQ(resizectl({"set", "web", "--cpus", "1", "--pool", "batch"}).exitStatus, 1);
    EXPECT_EQ(resizectl({"set", "web", "--cpus", "1", "--pool", ""}).exitStatus, 1);
    EXPECT_EQ(resizectl({"set", "web", "--cpus", "1", "--pool"}).exitStatus, 2);
    EXPECT_THAT(resizectl({"set", "--help"}).standardOutput, HasSubstr("--pool ''"));
}

TEST(ResizectlCli, TopWantsAPositiveDelayAndCount)
{
    EXPECT_EQ(resizectl({"top", "-d", "0"}).exitStatus, 2);
    EXPECT_EQ(resizectl({"top", "--delay", "soon"}).exitStatus, 2);
    EXPECT_EQ(resizectl({"top", "-n", "0"}).exitStatus, 2);
    EXPECT_EQ(resizectl({"top", "-d", "0.5", "-n", "1"}).exitStatus, 1);
}

TEST(ResizectlCli, UnreachableBusIsAFailure)
{
    const auto result = resizectl({"list"});
    EXPECT_EQ(result.exitStatus, 1);
    EXPECT_THAT(result.standardError, StartsWith("resizectl: cannot connect to the system bus"));
}

}  // namespace
}  // namespace resized::ctl
