// A randomized soak across the features where they meet (design.md §1c):
// updates, plans, a pool with a cap and a disruption budget, exclusive
// slices, a pod's limit, Forget, autoscale policies, stops, pauses,
// re-creations into and out of the pod, and kill -9 of resized and of
// Podman, in a random order on a few workloads at once. The daemon checks the invariants after
// every commit it makes (RESIZED_CHECK_INVARIANTS=abort, set for every
// test) and the test checks, after every step, that it is still there and
// answers only with the contract's errors, and what the bus shows of the
// slices. At the end, with nothing in flight, no reservation is left.
//
// RESIZED_SOAK_STEPS (default 60) sets the number of steps and
// RESIZED_SOAK_SEED the random seed; the seed is printed, so that a failing
// sequence can be run again.

#include "cpu_list.h"
#include "daemon_test.h"

#include "support/podman_service.h"
#include "support/scoped_pod.h"
#include "support/wait.h"

#include <gtest/gtest.h>

#include <array>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

namespace resized::integration
{
namespace
{

using namespace std::chrono_literals;
using sdbus::Variant;

unsigned fromEnvironment(const char* name, unsigned fallback)
{
    const char* value = std::getenv(name);
    return value ? static_cast<unsigned>(std::stoul(value)) : fallback;
}

// What the contract lets a call end with, besides success, when it is
// asked something a node may refuse (design.md §1, §1b).
const std::set<std::string> contractRefusals{
    "io.resized1.Error.InvalidArgument",       "io.resized1.Error.NoSuchWorkload",
    "io.resized1.Error.InsufficientResources", "io.resized1.Error.Infeasible",
    "io.resized1.Error.MemoryInUse",           "io.resized1.Error.ApplyFailed",
    "io.resized1.Error.BudgetExhausted",       "io.resized1.Error.NoSuchPool",
    // While the step that kills Podman waits for it.
    "io.resized1.Error.RuntimeUnavailable",
};

class SeamsSoakTest : public DaemonTest
{
  protected:
    static constexpr unsigned slots = 4;
    // The slot whose container moves into and out of the pod.
    static constexpr unsigned podSlot = 2;

    void SetUp() override
    {
        DaemonTest::SetUp();
        if (IsSkipped())
        {
            return;
        }
        // Slices need a shared pool besides them; no CPU kept out of the
        // capacity, so that a slice is refused by the CPU manager's rules
        // and the budget, not by the reserve.
        std::ofstream(daemonOptions().configFile)
            << "[Node]\nReservedCPU=0\nReservedMemory=" << reservedMemory / mebibyte << "Mi\n"
            << "[Sync]\nIntervalSec=3600\n"
            << "[Update]\nReclaimTimeoutSec=1\n"
            << "[Workloads]\nRemovedGraceSec=2\n"
            << "[CpuManager]\nPolicy=static\n";
        daemon().stop();
        // A Podman service of the soak's own, which a step kills.
        podmanService_.emplace(environment().directory / "soak-podman.sock",
                               environment().directory / "soak-podman.log");
        daemonOptions().podmanSocket = podmanService_->socket();
        startDaemon();
        pod_.emplace(podman(), containerName("shop"), ScopedPod::Infra::with);
        for (unsigned slot = 0; slot < slots; ++slot)
        {
            names_.push_back(containerName("w" + std::to_string(slot)));
            create(slot, slot == podSlot);
        }
    }

    void TearDown() override
    {
        for (auto& container : containers_)
        {
            container.reset();
        }
        pod_.reset();
        DaemonTest::TearDown();
        podmanService_.reset();
    }

    void create(unsigned slot, bool inPod)
    {
        containers_[slot].reset();
        std::vector<std::string> arguments;
        if (inPod)
        {
            arguments = {"--pod", pod_->name()};
        }
        if (slot == 3)
        {
            arguments.push_back("--label=io.resized1.pool=batch");
        }
        containers_[slot].emplace(podman(), names_[slot], arguments);
        inPod_[slot] = inPod;
    }

    // Calls `call`; a refusal of the contract is an answer, anything else
    // (the daemon gone, a timeout, an unknown error) fails the step.
    void ask(const std::string& what, const std::function<void()>& call)
    {
        const auto error = errorOf(call);
        if (error && !contractRefusals.contains(error->getName()))
        {
            ADD_FAILURE() << what << ": " << error->getName() << ": " << error->getMessage();
        }
        ++answers_[error ? error->getName() : "success"];
    }

    Dictionary randomResources()
    {
        switch (pick(4))
        {
        case 0:
            return ResourceValues{.cpuMillis = 100 + pick(25) * 100}.toDictionary();
        case 1:
            return ResourceValues{.memoryMax = (32 + pick(32) * 32) * mebibyte}.toDictionary();
        case 2:
            return ResourceValues{.exclusiveCpus = pick(2)}.toDictionary();
        default:
            return ResourceValues{.cpuMillis = 100 + pick(15) * 100, .memoryMax = (64 + pick(16) * 32) * mebibyte}
                .toDictionary();
        }
    }

    std::string anyWorkload()
    {
        const unsigned slot = pick(slots + 1);
        return slot == slots ? "pod:" + pod_->name() : names_[slot];
    }

    void step(unsigned number)
    {
        const unsigned slot = pick(slots);
        const std::string& name = names_[slot];
        const Dictionary shortReclaim{{"ReclaimTimeoutUSec", Variant(std::uint64_t{200'000})}};
        std::string what;
        switch (pick(15))
        {
        case 0:
        case 1:
        case 2: {
            const std::string workload = anyWorkload();
            what = "update " + workload;
            Dictionary options = shortReclaim;
            if (pick(4) == 0)
            {
                options.emplace("Defer", Variant(true));
            }
            if (pick(6) == 0)
            {
                options.emplace("Force", Variant(true));
            }
            ask(what, [&] { client().updateResources(workload, randomResources(), options); });
            break;
        }
        case 3: {
            const unsigned other = (slot + 1 + pick(slots - 1)) % slots;
            what = "plan " + name + " and " + names_[other];
            Dictionary options;
            if (pick(3) == 0)
            {
                options.emplace("Defer", Variant(true));
            }
            ask(what, [&] {
                client().submitPlan({{name, randomResources()}, {names_[other], randomResources()}}, options);
            });
            break;
        }
        case 4:
            what = "forget " + name;
            ask(what, [&] { client().forget(name); });
            break;
        case 5:
            what = "autoscale " + name;
            if (pick(2) == 0)
            {
                ask(what, [&] {
                    client().setAutoscalePolicy(name, {{"CpuTargetUtilization", Variant(std::uint32_t{50})},
                                                       {"CpuMaxMillis", Variant(std::uint64_t{1500})},
                                                       {"IntervalUSec", Variant(std::uint64_t{200'000})}});
                });
            }
            else
            {
                ask(what, [&] { client().removeAutoscalePolicy(name); });
            }
            break;
        case 6:
            what = "pool batch";
            if (pick(3) == 0)
            {
                ask(what, [&] { client().removePool("batch"); });
            }
            else
            {
                const Dictionary budget{{"Value", Variant(std::to_string(pick(3)))},
                                        {"PeriodUSec", Variant(std::uint64_t{2'000'000})}};
                ask(what, [&] {
                    client().setPool("batch", {{"CpuMillis", Variant(std::uint64_t{500 + pick(4) * 500})},
                                               {"Budgets", Variant(std::vector<Dictionary>{budget})}});
                });
            }
            break;
        case 7:
            what = "stop and start " + name;
            podman().run({"stop", "-t", "0", name});
            podman().run({"start", name});
            break;
        case 8:
            what = "pause and unpause " + name;
            podman().run({"pause", name});
            ask(what, [&] { client().getResourceStatus(name); });
            podman().run({"unpause", name});
            break;
        case 9:
            what = "re-create " + name;
            create(slot, slot == podSlot ? !inPod_[slot] : inPod_[slot]);
            break;
        case 10:
            what = "kill -9 and restart";
            daemon().kill9();
            startDaemon();
            break;
        case 13:
            what = "kill -9 of Podman, then update " + name;
            podmanService_->kill();
            ask(what, [&] { client().updateResources(name, randomResources()); });
            podmanService_->start();
            break;
        case 11:
            what = "reconcile";
            ask(what, [&] { client().reconcile(""); });
            break;
        case 12:
            what = "status";
            for (const auto& each : names_)
            {
                ask(what + " " + each, [&] { client().getResourceStatus(each); });
            }
            break;
        default:
            what = "validate " + name;
            ask(what, [&] { client().validateResourceUpdate(name, randomResources()); });
            break;
        }
        ASSERT_TRUE(daemon().running()) << "step " << number << " (" << what
                                        << ") ended the daemon:\n" << daemon().log();
        const auto slices = client().managerProperty("ExclusiveCpuSet").get<std::string>();
        const auto shared = client().managerProperty("SharedCpus").get<std::string>();
        ASSERT_FALSE(shared.empty()) << "step " << number << " (" << what << ") left no shared CPU";
        for (const unsigned cpu : parseCpuList(slices))
        {
            ASSERT_FALSE(parseCpuList(shared).contains(cpu))
                << "step " << number << " (" << what << "): CPU " << cpu << " is in a slice (" << slices
                << ") and shared (" << shared << ")";
        }
    }

    unsigned pick(unsigned count) { return std::uniform_int_distribution<unsigned>(0, count - 1)(random_); }

    std::optional<PodmanService> podmanService_;
    std::optional<ScopedPod> pod_;
    std::vector<std::string> names_;
    std::array<std::optional<ScopedContainer>, slots> containers_;
    std::array<bool, slots> inPod_{};
    std::mt19937 random_;
    // How the calls were answered, by error name ("success").
    std::map<std::string, unsigned> answers_;
};

TEST_F(SeamsSoakTest, EveryStepKeepsTheInvariants)
{
    const unsigned steps = fromEnvironment("RESIZED_SOAK_STEPS", 60);
    const unsigned seed = fromEnvironment("RESIZED_SOAK_SEED", std::random_device{}());
    random_.seed(seed);
    std::cout << "seams soak: " << steps << " steps, RESIZED_SOAK_SEED=" << seed << "\n";

    for (unsigned number = 1; number <= steps && !HasFatalFailure(); ++number)
    {
        step(number);
    }

    // Nothing in flight any more: no plan runs, and no reservation is left.
    const auto nothingRuns = [&] {
        for (const auto& plan : client().listPlans())
        {
            if (entryOf<std::string>(client().planProperties(plan.get<1>()), "State") == "running")
            {
                return false;
            }
        }
        return true;
    };
    std::cout << "seams soak: answers:";
    for (const auto& [answer, count] : answers_)
    {
        std::cout << " " << answer << " " << count;
    }
    std::cout << "\n";
    // A soak whose changes all were refused would have tried nothing.
    EXPECT_GT(answers_["success"], steps / 10);
    ASSERT_TRUE(waitUntil(nothingRuns, 30s));
    EXPECT_TRUE(waitUntil([&] { return client().managerNumber("CpuReservedMillis") == 0; }, 30s))
        << client().managerNumber("CpuReservedMillis") << "m CPU still reserved";
    EXPECT_TRUE(daemon().running()) << daemon().log();
}

} // namespace
} // namespace resized::integration
