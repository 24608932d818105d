// Eight clients at once, each with a bus connection of its own, mixing
// updates within capacity, reads, validations and bad calls for a bounded
// while. Every answer must be the documented one for its call, no
// reservation may be left behind, every cgroup must end as its workload's
// desired state says, and the daemon's memory must not grow without bound.

#include "daemon/daemon_test.h"
#include "support/bus_names.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <deque>
#include <fstream>
#include <functional>
#include <iterator>
#include <iostream>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace resized::integration
{
namespace
{

constexpr int clientCount = 8;
constexpr int workloadCount = 4;
constexpr auto loadDuration = std::chrono::seconds(20);

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

// What the clients saw: answers by call and outcome ("ok" or an error name),
// and the answers that were not the documented one for their call.
struct Tally
{
    std::map<std::string, std::uint64_t> answers;
    std::vector<std::string> unexpected;
    std::mutex mutex;

    void record(const std::string& call, const std::string& outcome, const std::string& expected,
                const std::string& message)
    {
        const std::scoped_lock lock(mutex);
        ++answers[call + " -> " + outcome];
        if (outcome != expected && unexpected.size() < 20)
        {
            unexpected.push_back(call + " answered " + outcome + ": " + message);
        }
    }
};

class LoadTest : public DaemonTest
{};

// One client's loop: the calls take turns, each with the answer it must get.
void runClient(int index, const std::vector<std::string>& workloads,
               std::chrono::steady_clock::time_point deadline, Tally& tally)
{
    ResizedClient client;
    for (std::uint64_t round = 0; std::chrono::steady_clock::now() < deadline; ++round)
    {
        const std::string& workload = workloads[(index + round) % workloads.size()];
        auto attempt = [&](const std::string& call, const std::string& expected,
                           const std::function<void()>& body) {
            const auto error = errorOf(body);
            tally.record(call, error ? error->getName() : "ok", expected,
                         error ? error->getMessage() : "");
        };
        switch (round % 6)
        {
            case 0:
                attempt("UpdateResources", "ok", [&] {
                    client.updateResources(
                        workload, ResourceValues{.cpuMillis = 100 + round % 3 * 50,
                                                 .memoryMax = (64 + round % 2 * 32) * mebibyte});
                });
                break;
            case 1:
                attempt("GetResourceStatus", "ok", [&] { client.getResourceStatus(workload); });
                break;
            case 2:
                attempt("ListWorkloads", "ok", [&] { client.listWorkloads(); });
                break;
            case 3:
                attempt("ValidateResourceUpdate", "ok", [&] {
                    client.validateResourceUpdate(workload,
                                                  ResourceValues{.cpuMillis = 150}.toDictionary());
                });
                break;
            case 4:
                attempt("UpdateResources(CpuMillis=0)", "io.resized1.Error.InvalidArgument",
                        [&] { client.updateResources(workload, ResourceValues{.cpuMillis = 0}); });
                break;
            default:
                attempt("GetResourceStatus(unknown)", "io.resized1.Error.NoSuchWorkload",
                        [&] { client.getResourceStatus("no-such-" + workload); });
                break;
        }
    }
}

TEST_F(LoadTest, ConcurrentClientsGetOnlyDocumentedAnswers)
{
    std::deque<ScopedContainer> containers;
    std::vector<std::string> workloads;
    for (int i = 0; i < workloadCount; ++i)
    {
        containers.emplace_back(podman(), containerName("w" + std::to_string(i)));
        workloads.push_back(containers.back().name());
        client().updateResources(workloads.back(), ResourceValues{.cpuMillis = 100});
    }
    const auto pid = busNameOwnerPid(busName);
    ASSERT_TRUE(pid);
    const std::uint64_t rssBefore = residentKibibytes(*pid);

    Tally tally;
    const auto deadline = std::chrono::steady_clock::now() + loadDuration;
    std::vector<std::thread> threads;
    for (int index = 0; index < clientCount; ++index)
    {
        threads.emplace_back(runClient, index, std::cref(workloads), deadline, std::ref(tally));
    }
    for (auto& thread : threads)
    {
        thread.join();
    }
    const std::uint64_t rssAfter = residentKibibytes(*pid);

    std::uint64_t total = 0;
    for (const auto& [answer, count] : tally.answers)
    {
        std::cout << "  " << answer << ": " << count << "\n";
        total += count;
    }
    std::cout << "calls: " << total << ", VmRSS before " << rssBefore << " KiB, after "
              << rssAfter << " KiB\n";
    RecordProperty("calls", static_cast<int>(total));
    RecordProperty("rss_before_kib", static_cast<int>(rssBefore));
    RecordProperty("rss_after_kib", static_cast<int>(rssAfter));

    EXPECT_TRUE(tally.unexpected.empty()) << tally.unexpected.front();
    ASSERT_TRUE(daemon().running());
    EXPECT_EQ(busNameOwnerPid(busName), pid);
    EXPECT_EQ(client().managerNumber("CpuReservedMillis"), 0U);
    EXPECT_EQ(client().managerNumber("MemoryReserved"), 0U);
    for (const auto& container : containers)
    {
        const Dictionary status = client().getResourceStatus(container.name());
        EXPECT_EQ(entryOf<std::string>(status, "SyncState"), "synchronized") << container.name();
        EXPECT_EQ(CgroupLimits::read(container.cgroupPath()).cpuMillis(),
                  desiredOf(status).cpuMillis)
            << container.name();
    }
    if (runsUnderAddressSanitizer(*pid))
    {
        std::cout << "resized runs under AddressSanitizer: its RSS is not bounded here\n";
        return;
    }
    // Generous: only unbounded growth fails it.
    EXPECT_LT(rssAfter, 2 * rssBefore + 10 * 1024);
}

} // namespace
} // namespace resized::integration
