// Eight clients at once, each with a bus connection of its own, mixing calls
// for a bounded while: first with everything up, then with Podman's API
// service stopped part-way and started again. Every answer must be a
// documented one for its call, no reservation may be left behind, every
// cgroup must end as its workload's desired state says, and the daemon's
// memory must not grow without bound.

#include "daemon/daemon_test.h"
#include "support/podman_service.h"
#include "support/bus_names.h"
#include "support/wait.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <fstream>
#include <functional>
#include <iterator>
#include <iostream>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace resized::integration
{
namespace
{

constexpr int clientCount = 8;
constexpr int workloadCount = 4;
constexpr auto loadDuration = std::chrono::seconds(20);
// Each phase of the outage test: Podman up, Podman away, Podman back.
constexpr auto outagePhaseDuration = std::chrono::seconds(7);

constexpr auto ok = "ok";
constexpr auto invalidArgument = "io.resized1.Error.InvalidArgument";
constexpr auto noSuchWorkload = "io.resized1.Error.NoSuchWorkload";
constexpr auto runtimeUnavailable = "io.resized1.Error.RuntimeUnavailable";

// The answers a call may get: "ok" or error names.
using Answers = std::set<std::string>;

// VmRSS of a process in KiB.
std::uint64_t residentKibibytes(pid_t pid)
{
    std::ifstream status("/proc/" + std::to_string(pid) + "/status");
    std::string field;
    while (status >> field)
    {
        if (field == "VmRSS:")
        {
            std::uint64_t kibibytes = 0;
            status >> kibibytes;
            return kibibytes;
        }
    }
    throw std::runtime_error("no VmRSS for " + std::to_string(pid));
}

// Whether pid runs with AddressSanitizer (gcc links libasan dynamically).
// Its quarantine keeps freed memory resident by design, so RSS says nothing
// about leaks there; LeakSanitizer checks those at exit instead.
bool runsUnderAddressSanitizer(pid_t pid)
{
    std::ifstream maps("/proc/" + std::to_string(pid) + "/maps");
    const std::string content{std::istreambuf_iterator<char>(maps), std::istreambuf_iterator<char>()};
    return content.find("libasan") != std::string::npos;
}

// What the clients saw: answers by phase, call and outcome ("ok" or an error
// name), and the answers that were not documented ones for their call.
class Tally
{
  public:
    // Counts the answers from now on apart, under name. A call that was on
    // its way counts in the phase its answer arrives in.
    void beginPhase(const std::string& name)
    {
        const std::scoped_lock lock(mutex_);
        phase_ = "[" + name + "] ";
    }

    void record(const std::string& call, const std::string& outcome, const Answers& documented,
                const std::string& message)
    {
        const std::scoped_lock lock(mutex_);
        ++answers_[phase_ + call + " -> " + outcome];
        ++outcomes_[outcome];
        if (!documented.contains(outcome) && unexpected_.size() < 20)
        {
            unexpected_.push_back(call + " answered " + outcome + ": " + message);
        }
    }

    // How many calls, whichever, were answered with outcome so far.
    std::uint64_t count(const std::string& outcome)
    {
        const std::scoped_lock lock(mutex_);
        const auto found = outcomes_.find(outcome);
        return found == outcomes_.end() ? 0 : found->second;
    }

    // Prints every answer's count, the total and the daemon's VmRSS, and
    // records the figures in the test's XML.
    void report(std::uint64_t rssBefore, std::uint64_t rssAfter)
    {
        const std::scoped_lock lock(mutex_);
        std::uint64_t total = 0;
        for (const auto& [answer, count] : answers_)
        {
            std::cout << "  " << answer << ": " << count << "\n";
            total += count;
        }
        for (const auto& [outcome, count] : outcomes_)
        {
            std::cout << "  all calls -> " << outcome << ": " << count << "\n";
            ::testing::Test::RecordProperty(outcome, static_cast<int>(count));
        }
        std::cout << "calls: " << total << ", VmRSS before " << rssBefore << " KiB, after "
                  << rssAfter << " KiB\n";
        ::testing::Test::RecordProperty("calls", static_cast<int>(total));
        ::testing::Test::RecordProperty("rss_before_kib", static_cast<int>(rssBefore));
        ::testing::Test::RecordProperty("rss_after_kib", static_cast<int>(rssAfter));
    }

    // The first few answers that were not documented ones, one a line.
    std::string unexpected()
    {
        const std::scoped_lock lock(mutex_);
        std::string lines;
        for (const auto& line : unexpected_)
        {
            lines += line + "\n";
        }
        return lines;
    }

  private:
    std::mutex mutex_;
    std::string phase_;
    std::map<std::string, std::uint64_t> answers_;
    std::map<std::string, std::uint64_t> outcomes_;
    std::vector<std::string> unexpected_;
};

// Makes one call and tallies its answer: attempt(call, documented, body).
using Attempt = std::function<void(const std::string& call, const Answers& documented,
                                   const std::function<void()>& body)>;
// What a client calls in its round-th turn, on workload.
using CallMix = std::function<void(ResizedClient& client, const std::string& workload,
                                   std::uint64_t round, const Attempt& attempt)>;

// clientCount clients calling at once, each with a bus connection of its
// own, taking turns through the workloads, until this is destroyed.
class Clients
{
  public:
    Clients(std::vector<std::string> workloads, CallMix mix, Tally& tally) :
        workloads_(std::move(workloads)), mix_(std::move(mix)), tally_(tally)
    {
        for (int index = 0; index < clientCount; ++index)
        {
            threads_.emplace_back(&Clients::run, this, index);
        }
    }
    Clients(const Clients&) = delete;
    Clients& operator=(const Clients&) = delete;

    ~Clients()
    {
        stopping_ = true;
        for (auto& thread : threads_)
        {
            thread.join();
        }
    }

  private:
    void run(int index)
    {
        ResizedClient client;
        const Attempt attempt = [&](const std::string& call, const Answers& documented,
                                    const std::function<void()>& body) {
            const auto error = errorOf(body);
            tally_.record(call, error ? error->getName() : ok, documented,
                          error ? error->getMessage() : "");
        };
        for (std::uint64_t round = 0; !stopping_; ++round)
        {
            mix_(client, workloads_[(index + round) % workloads_.size()], round, attempt);
        }
    }

    const std::vector<std::string> workloads_;
    const CallMix mix_;
    Tally& tally_;
    std::atomic<bool> stopping_ = false;
    std::vector<std::thread> threads_;
};

// An update that fits the node whatever the other clients do: every
// workload at most 200m CPU and 96 MiB; step picks the values.
void updateWithinCapacity(ResizedClient& client, const std::string& workload, std::uint64_t step)
{
    client.updateResources(workload, ResourceValues{.cpuMillis = 100 + step % 3 * 50,
                                                    .memoryMax = (64 + step % 2 * 32) * mebibyte});
}

// Everything up: updates within capacity, reads, validations and bad calls,
// each with the one answer it must get.
void mixedCalls(ResizedClient& client, const std::string& workload, std::uint64_t round,
                const Attempt& attempt)
{
    switch (round % 6)
    {
        case 0:
            attempt("UpdateResources", {ok},
                    [&] { updateWithinCapacity(client, workload, round / 6); });
            break;
        case 1:
            attempt("GetResourceStatus", {ok}, [&] { client.getResourceStatus(workload); });
            break;
        case 2:
            attempt("ListWorkloads", {ok}, [&] { client.listWorkloads(); });
            break;
        case 3:
            attempt("ValidateResourceUpdate", {ok}, [&] {
                client.validateResourceUpdate(workload,
                                              ResourceValues{.cpuMillis = 150}.toDictionary());
            });
            break;
        case 4:
            attempt("UpdateResources(CpuMillis=0)", {invalidArgument},
                    [&] { client.updateResources(workload, ResourceValues{.cpuMillis = 0}); });
            break;
        default:
            attempt("GetResourceStatus(unknown)", {noSuchWorkload},
                    [&] { client.getResourceStatus("no-such-" + workload); });
            break;
    }
}

// Podman may be away: what needs it (resolving the workload) may answer
// RuntimeUnavailable; reads of managed workloads come from the store
// (docs/dbus-api.md).
void callsThroughAnOutage(ResizedClient& client, const std::string& workload,
                          std::uint64_t round, const Attempt& attempt)
{
    switch (round % 4)
    {
        case 0:
            attempt("UpdateResources", {ok, runtimeUnavailable},
                    [&] { updateWithinCapacity(client, workload, round / 4); });
            break;
        case 1:
            attempt("GetResourceStatus", {ok}, [&] { client.getResourceStatus(workload); });
            break;
        case 2:
            attempt("ListWorkloads", {ok}, [&] { client.listWorkloads(); });
            break;
        default:
            attempt("Reconcile", {ok, runtimeUnavailable}, [&] { client.reconcile(workload); });
            break;
    }
}

class LoadTest : public DaemonTest
{
  protected:
    // workloadCount running containers, each managed with a CPU limit.
    std::deque<ScopedContainer> startManagedContainers()
    {
        std::deque<ScopedContainer> containers;
        for (int i = 0; i < workloadCount; ++i)
        {
            containers.emplace_back(podman(), containerName("w" + std::to_string(i)));
            client().updateResources(containers.back().name(), ResourceValues{.cpuMillis = 100});
        }
        return containers;
    }

    static std::vector<std::string> namesOf(const std::deque<ScopedContainer>& containers)
    {
        std::vector<std::string> names;
        for (const auto& container : containers)
        {
            names.push_back(container.name());
        }
        return names;
    }

    // No reservation is left, and every container is synchronized, its
    // cgroup holding its desired state.
    void expectSettled(const std::deque<ScopedContainer>& containers)
    {
        EXPECT_EQ(client().managerNumber("CpuReservedMillis"), 0U);
        EXPECT_EQ(client().managerNumber("MemoryReserved"), 0U);
        for (const auto& container : containers)
        {
            const Dictionary status = client().getResourceStatus(container.name());
            EXPECT_EQ(entryOf<std::string>(status, "SyncState"), "synchronized")
                << container.name();
            const CgroupLimits limits = CgroupLimits::read(container.cgroupPath());
            const ResourceValues desired = desiredOf(status);
            EXPECT_EQ(limits.cpuMillis(), desired.cpuMillis) << container.name();
            if (desired.memoryMax)
            {
                EXPECT_EQ(limits.memoryLimit, *desired.memoryMax) << container.name();
            }
        }
    }

    static void expectBoundedGrowth(pid_t pid, std::uint64_t rssBefore, std::uint64_t rssAfter)
    {
        if (runsUnderAddressSanitizer(pid))
        {
            std::cout << "resized runs under AddressSanitizer: its RSS is not bounded here\n";
            return;
        }
        // Generous: only unbounded growth fails it.
        EXPECT_LT(rssAfter, 2 * rssBefore + 10 * 1024);
    }
};

TEST_F(LoadTest, ConcurrentClientsGetOnlyDocumentedAnswers)
{
    const auto containers = startManagedContainers();
    const auto pid = busNameOwnerPid(busName);
    ASSERT_TRUE(pid);
    const std::uint64_t rssBefore = residentKibibytes(*pid);

    Tally tally;
    {
        const Clients clients(namesOf(containers), mixedCalls, tally);
        std::this_thread::sleep_for(loadDuration);
    }
    const std::uint64_t rssAfter = residentKibibytes(*pid);
    tally.report(rssBefore, rssAfter);

    EXPECT_EQ(tally.unexpected(), "");
    ASSERT_TRUE(daemon().running());
    EXPECT_EQ(busNameOwnerPid(busName), pid);
    expectSettled(containers);
    expectBoundedGrowth(*pid, rssBefore, rssAfter);
}

TEST_F(LoadTest, PodmanOutageUnderLoadGetsOnlyDocumentedAnswers)
{
    // A Podman API service of this test's own to stop, so that the
    // environment's stays up for everything else; resized starts again on
    // it (the podman command line, which makes the containers, needs none).
    PodmanService podmanService(environment().directory / "load-podman.sock",
                                environment().directory / "load-podman.log");
    DaemonOptions options = daemon().options();
    options.podmanSocket = podmanService.socket();
    daemon().stop();
    DaemonProcess resized(options);

    const auto containers = startManagedContainers();
    const auto pid = busNameOwnerPid(busName);
    ASSERT_TRUE(pid);
    const std::uint64_t rssBefore = residentKibibytes(*pid);

    Tally tally;
    {
        tally.beginPhase("1 Podman up");
        const Clients clients(namesOf(containers), callsThroughAnOutage, tally);
        std::this_thread::sleep_for(outagePhaseDuration);
        tally.beginPhase("2 Podman away");
        podmanService.kill();
        EXPECT_TRUE(waitUntil([&] { return tally.count(runtimeUnavailable) > 0; },
                              std::chrono::seconds(30)))
            << "no call met the outage";
        std::this_thread::sleep_for(outagePhaseDuration);
        podmanService.start();
        tally.beginPhase("3 Podman back");
        std::this_thread::sleep_for(outagePhaseDuration);
    }
    const std::uint64_t rssAfter = residentKibibytes(*pid);
    tally.report(rssBefore, rssAfter);

    EXPECT_EQ(tally.unexpected(), "");
    ASSERT_TRUE(resized.running());
    EXPECT_EQ(busNameOwnerPid(busName), pid);
    // Values no client used, so that the cgroups show these updates landed.
    const ResourceValues afterOutage{.cpuMillis = 250, .memoryMax = 128 * mebibyte};
    for (const auto& container : containers)
    {
        const std::string& workload = container.name();
        const auto error = errorOf([&] { client().updateResources(workload, afterOutage); });
        EXPECT_FALSE(error) << workload << ": " << error->getName() << ": " << error->getMessage();
        EXPECT_EQ(desiredOf(client().getResourceStatus(workload)), afterOutage) << workload;
    }
    // Reconnecting the event stream backs off up to 30 s.
    EXPECT_TRUE(waitUntil(
        [&] { return client().managerProperty("RuntimeConnected").get<bool>(); },
        std::chrono::seconds(60)));
    expectSettled(containers);
    expectBoundedGrowth(*pid, rssBefore, rssAfter);
}

} // namespace
} // namespace resized::integration
