// Crash consistency over many crashes in a row: each round changes the CPU
// and the memory limit of a container together and kills resized during the
// update, at one of its failpoints or with a SIGKILL from outside after a
// random delay, then starts it again. After every restart the update is
// there in full or not at all, the store and the cgroup files agree, no
// reservation is left, and the desired state of another workload is intact.
//
// A plan of two changes is killed the same way: both changes or neither.
//
// RESIZED_CRASH_ROUNDS (default 10, 6 for plans) sets the number of rounds and
// RESIZED_CRASH_SEED the random seed; the seed is printed, so that a failing
// sequence can be run again.

#include "reconcile_test.h"

#include "support/bus_names.h"
#include "support/wait.h"

#include <gtest/gtest.h>

#include <signal.h>

#include <array>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace resized::integration
{
namespace
{

constexpr unsigned defaultRounds = 10;

// The failpoints of an update, in the order the update reaches them, and
// what the restart makes of the update each interrupts.
struct CrashPoint
{
    const char* failpoint; // nullptr: a SIGKILL from outside
    std::optional<bool> completed; // nullopt: either, as the timing decides
};

constexpr std::array crashPoints{
    CrashPoint{"after-reserve", false},  CrashPoint{"between-writes", false},
    CrashPoint{"after-write", true},     CrashPoint{"before-commit", true},
    CrashPoint{"after-commit", true},    CrashPoint{nullptr, std::nullopt},
};

struct Limits
{
    std::uint64_t cpuMillis;
    std::uint64_t memoryMax;

    bool operator==(const Limits&) const = default;
};

std::ostream& operator<<(std::ostream& stream, const Limits& limits)
{
    return stream << limits.cpuMillis << "m/" << limits.memoryMax / mebibyte << "MiB";
}

unsigned fromEnvironment(const char* name, unsigned fallback)
{
    const char* value = std::getenv(name);
    return value ? static_cast<unsigned>(std::stoul(value)) : fallback;
}

class CrashSoakTest : public ReconcileTest
{
  protected:
    // Limits that differ from current in both keys; the memory limits stay
    // far above what the idle container uses, so that no shrink waits.
    Limits nextLimits(const Limits& current)
    {
        std::uniform_int_distribution<std::uint64_t> cpu(3, 9);
        std::uniform_int_distribution<std::uint64_t> memory(3, 6);
        Limits next = current;
        while (next.cpuMillis == current.cpuMillis)
        {
            next.cpuMillis = cpu(random_) * 100;
        }
        while (next.memoryMax == current.memoryMax)
        {
            next.memoryMax = memory(random_) * 64 * mebibyte;
        }
        return next;
    }

    // Starts resized armed with the failpoint and sends the update, which
    // must go unanswered: the daemon has to die at the failpoint.
    void crashAtFailpoint(const std::string& workload, const char* failpoint, const Limits& wanted)
    {
        startDaemon({std::string("RESIZED_FAILPOINT=") + failpoint});
        EXPECT_TRUE(errorOf([&] { update(workload, wanted); }))
            << "the update answered although the daemon should have died";
        ASSERT_TRUE(waitUntil([&] { return !daemon().running(); }, backgroundTimeout))
            << "resized did not die at " << failpoint;
        daemon().kill9();
    }

    // Sends the update and kills resized from outside after a random delay
    // of up to 30 ms, which falls anywhere in the update or after it.
    // Returns whether the update was answered with success before.
    bool crashFromOutside(const std::string& workload, const Limits& wanted)
    {
        startDaemon();
        const auto pid = busNameOwnerPid(busName);
        EXPECT_TRUE(pid);
        const std::chrono::microseconds delay{
            std::uniform_int_distribution<int>(0, 30'000)(random_)};
        std::thread killer([pid = pid.value_or(0), delay] {
            std::this_thread::sleep_for(delay);
            if (pid > 0)
            {
                ::kill(pid, SIGKILL);
            }
        });
        const bool answered = !errorOf([&] { update(workload, wanted); });
        killer.join();
        daemon().kill9();
        return answered;
    }

    void update(const std::string& workload, const Limits& wanted)
    {
        client().updateResources(workload, ResourceValues{.cpuMillis = wanted.cpuMillis,
                                                          .memoryMax = wanted.memoryMax});
    }

    static Limits cgroupLimitsOf(const ScopedContainer& container)
    {
        const CgroupLimits limits = limitsOf(container);
        return {limits.cpuMillis().value_or(0), limits.memoryLimit};
    }

    // The store agrees with the cgroup: desired, actual, the budget.
    void expectInAgreement(const std::string& workload, const Limits& inCgroup)
    {
        const auto status = client().getResourceStatus(workload);
        EXPECT_EQ(desiredOf(status).cpuMillis, inCgroup.cpuMillis);
        EXPECT_EQ(desiredOf(status).memoryMax, inCgroup.memoryMax);
        EXPECT_EQ(actualOf(status).cpuMillis, inCgroup.cpuMillis);
        EXPECT_EQ(actualOf(status).memoryMax, inCgroup.memoryMax);
        EXPECT_EQ(entryOf<std::string>(status, "SyncState"), "synchronized");
        EXPECT_EQ(entryOf<std::uint64_t>(status, "ObservedGeneration"),
                  entryOf<std::uint64_t>(status, "Generation"));
    }

    // Seeds the random sequence (RESIZED_CRASH_SEED, printed so that a
    // failing one can be run again) and returns the number of rounds.
    unsigned seedRounds(const std::string& soak, unsigned rounds = defaultRounds)
    {
        rounds = fromEnvironment("RESIZED_CRASH_ROUNDS", rounds);
        const unsigned seed = fromEnvironment("RESIZED_CRASH_SEED", std::random_device{}());
        random_.seed(seed);
        std::cout << soak << ": " << rounds << " rounds, RESIZED_CRASH_SEED=" << seed << "\n";
        return rounds;
    }

    static void printOutcomes(const std::map<std::string, unsigned>& outcomes)
    {
        for (const auto& [outcome, count] : outcomes)
        {
            std::cout << "  " << count << " x " << outcome << "\n";
        }
    }

    std::mt19937 random_;
};

TEST_F(CrashSoakTest, EveryCrashLeavesTheUpdateWholeOrUndone)
{
    const unsigned rounds = seedRounds("crash soak");

    startDaemon();
    const auto container = runContainer("c");
    const auto bystander = runContainer("bystander");
    const Limits bystanderLimits{300, 128 * mebibyte};
    update(bystander.name(), bystanderLimits);
    Limits current{500, 256 * mebibyte};
    update(container.name(), current);

    std::map<std::string, unsigned> outcomes;
    for (unsigned round = 0; round < rounds; ++round)
    {
        const CrashPoint& crash =
            crashPoints[std::uniform_int_distribution<std::size_t>(0, crashPoints.size() - 1)(random_)];
        const Limits wanted = nextLimits(current);
        const std::string where = crash.failpoint ? crash.failpoint : "SIGKILL from outside";
        SCOPED_TRACE("round " + std::to_string(round) + ": " + where);

        std::optional<bool> completed = crash.completed;
        if (crash.failpoint)
        {
            crashAtFailpoint(container.name(), crash.failpoint, wanted);
        }
        else if (crashFromOutside(container.name(), wanted))
        {
            completed = true;
        }
        if (HasFatalFailure())
        {
            return;
        }
        startDaemon();

        const Limits after = cgroupLimitsOf(container);
        if (completed)
        {
            EXPECT_EQ(after, *completed ? wanted : current)
                << "from " << current << " to " << wanted;
        }
        else
        {
            EXPECT_TRUE(after == wanted || after == current)
                << "half applied: " << after << " from " << current << " to " << wanted;
        }
        expectInAgreement(container.name(), after);
        EXPECT_EQ(client().managerNumber("CpuReservedMillis"), 0u);
        EXPECT_EQ(client().managerNumber("CpuAllocatedMillis"),
                  after.cpuMillis + bystanderLimits.cpuMillis);
        EXPECT_EQ(cgroupLimitsOf(bystander), bystanderLimits);
        expectInAgreement(bystander.name(), bystanderLimits);

        ++outcomes[where + (after == wanted ? ": completed" : ": undone")];
        current = after;
    }
    printOutcomes(outcomes);
}

// The failpoints of a plan moving CPU between two containers, in the order
// it reaches them.
constexpr std::array planCrashPoints{
    CrashPoint{"plan-after-reserve", false},
    CrashPoint{"between-cgroups", false},
    CrashPoint{"plan-before-commit", true},
    CrashPoint{nullptr, std::nullopt},
};

// A plan killed at any point: after the restart both of its changes are
// there or neither is, and the plan's state says which.
TEST_F(CrashSoakTest, EveryCrashLeavesAPlanWholeOrUndone)
{
    // Fewer by default: each of the 4 points comes up anyway in most runs.
    const unsigned rounds = seedRounds("plan crash soak", 6);

    startDaemon();
    const auto from = runContainer("from");
    const auto to = runContainer("to");
    constexpr std::uint64_t total = 1000;
    std::uint64_t current = 500;
    client().updateResources(from.name(), ResourceValues{.cpuMillis = current});
    client().updateResources(to.name(), ResourceValues{.cpuMillis = total - current});

    std::map<std::string, unsigned> outcomes;
    for (unsigned round = 0; round < rounds; ++round)
    {
        const CrashPoint& crash = planCrashPoints[std::uniform_int_distribution<std::size_t>(
            0, planCrashPoints.size() - 1)(random_)];
        std::uint64_t wanted = current;
        while (wanted == current)
        {
            wanted = std::uniform_int_distribution<std::uint64_t>(2, 8)(random_) * 100;
        }
        const std::string where = crash.failpoint ? crash.failpoint : "SIGKILL from outside";
        SCOPED_TRACE("round " + std::to_string(round) + ": " + where);
        const std::vector<PlanChange> changes{
            {from.name(), ResourceValues{.cpuMillis = wanted}.toDictionary()},
            {to.name(), ResourceValues{.cpuMillis = total - wanted}.toDictionary()}};

        sdbus::ObjectPath plan;
        startDaemon(crash.failpoint ? std::vector<std::string>{std::string("RESIZED_FAILPOINT=") + crash.failpoint}
                                    : std::vector<std::string>{});
        if (crash.failpoint)
        {
            plan = client().submitPlan(changes);
            ASSERT_TRUE(waitUntil([&] { return !daemon().running(); }, backgroundTimeout))
                << "resized did not die at " << crash.failpoint;
        }
        else
        {
            const auto pid = busNameOwnerPid(busName);
            ASSERT_TRUE(pid);
            plan = client().submitPlan(changes);
            std::this_thread::sleep_for(
                std::chrono::microseconds(std::uniform_int_distribution<int>(0, 30'000)(random_)));
            ::kill(*pid, SIGKILL);
        }
        daemon().kill9();
        startDaemon();

        // Submitted and not yet run when killed from outside: it runs now.
        const auto finished = [&] {
            const auto state = entryOf<std::string>(client().planProperties(plan), "State");
            return state != "pending" && state != "running";
        };
        ASSERT_TRUE(waitUntil(finished, backgroundTimeout));
        const std::string state = entryOf<std::string>(client().planProperties(plan), "State");
        const std::uint64_t after = limitsOf(from).cpuMillis().value_or(0);
        EXPECT_EQ(limitsOf(to).cpuMillis().value_or(0), total - after) << "half applied";
        EXPECT_EQ(after, state == "succeeded" ? wanted : current) << "the plan ended " << state;
        if (crash.completed)
        {
            EXPECT_EQ(after, *crash.completed ? wanted : current);
        }
        EXPECT_EQ(client().managerNumber("CpuReservedMillis"), 0u);
        EXPECT_EQ(client().managerNumber("CpuAllocatedMillis"), total);
        ++outcomes[where + ": " + state];
        current = after;
    }
    printOutcomes(outcomes);
}

} // namespace
} // namespace resized::integration
