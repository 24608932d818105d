// ValidateResourceUpdate and UpdateResources give the same answer for every
// request: a grid of requests around what is available and what the node
// holds, on a running, a stopped, an unmanaged container and one whose
// parent cgroup allows fewer CPUs, each asked through both. Allowed must
// mean the update succeeds; refused must mean InsufficientResources or
// Infeasible with the very reason ValidateResourceUpdate gave. Each single
// key is also applied for real, compared, and undone.

#include "support/cgroup_parent.h"
#include "daemon_test.h"

#include <sched.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

namespace resized::integration
{
namespace
{

constexpr auto insufficientResources = "io.resized1.Error.InsufficientResources";
constexpr auto infeasible = "io.resized1.Error.Infeasible";

// Real updates leave memory limits at least this high: an idle container's
// usage is far below, so no shrink waits for reclaim.
constexpr std::uint64_t smallestRealMemoryLimit = 64 * mebibyte;

Dictionary dryRun()
{
    return {{"DryRun", sdbus::Variant(true)}};
}

// The CPUs this process may run on, and so the daemon it starts.
std::vector<unsigned> usableCpus()
{
    cpu_set_t mask;
    CPU_ZERO(&mask);
    if (sched_getaffinity(0, sizeof(mask), &mask) != 0)
    {
        throw std::runtime_error("sched_getaffinity failed");
    }
    std::vector<unsigned> cpus;
    for (unsigned cpu = 0; cpu < CPU_SETSIZE; ++cpu)
    {
        if (CPU_ISSET(cpu, &mask))
        {
            cpus.push_back(cpu);
        }
    }
    return cpus;
}

std::string describe(const ResourceValues& values)
{
    std::ostringstream text;
    text << values;
    return text.str();
}

// What admission counts: no limit (or none known) is 0.
std::uint64_t counted(const std::optional<std::uint64_t>& limit)
{
    return limit && *limit != noLimit ? *limit : 0;
}

// The node's budget as the daemon's properties tell it.
struct Budget
{
    std::uint64_t cpuCapacity = 0;
    std::uint64_t memoryCapacity = 0;
    std::uint64_t cpuAvailable = 0;
    std::uint64_t memoryAvailable = 0;
    std::uint64_t cpuReserved = 0;
    std::uint64_t memoryReserved = 0;

    bool operator==(const Budget&) const = default;
};

std::ostream& operator<<(std::ostream& stream, const Budget& budget)
{
    return stream << "CPU " << budget.cpuAvailable << "m of " << budget.cpuCapacity << "m available ("
                  << budget.cpuReserved << "m reserved), memory " << budget.memoryAvailable << " of "
                  << budget.memoryCapacity << " (" << budget.memoryReserved << " reserved)";
}

class ValidateSweepTest : public DaemonTest
{
  protected:
    void SetUp() override
    {
        DaemonTest::SetUp();
        if (IsSkipped())
        {
            return;
        }
        cpus_ = usableCpus();
        // Another managed workload, so that the budget has an allocation
        // besides the one under test.
        neighbour_.emplace(podman(), containerName("neighbour"));
        client().updateResources(neighbour_->name(), ResourceValues{.cpuMillis = 300, .memoryMax = 256 * mebibyte});
    }

    void TearDown() override
    {
        neighbour_.reset();
        DaemonTest::TearDown();
    }

    Budget budget()
    {
        return {
            .cpuCapacity = client().managerNumber("CpuCapacityMillis"),
            .memoryCapacity = client().managerNumber("MemoryCapacity"),
            .cpuAvailable = client().managerNumber("CpuAvailableMillis"),
            .memoryAvailable = client().managerNumber("MemoryAvailable"),
            .cpuReserved = client().managerNumber("CpuReservedMillis"),
            .memoryReserved = client().managerNumber("MemoryReserved"),
        };
    }

    // Every CPU of the node, as a cpuset list.
    std::string nodeCpus() const
    {
        std::string list;
        for (const unsigned cpu : cpus_)
        {
            list += (list.empty() ? "" : ",") + std::to_string(cpu);
        }
        return list;
    }
    std::string firstCpu() const { return std::to_string(cpus_.front()); }
    std::string cpuOutsideTheNode() const { return std::to_string(cpus_.back() + 1); }

    // Requests around the edges of what `workload` may have now: what is
    // available plus what it holds, the capacity, no limit; each key alone
    // and in pairs, with each of `cpusets`.
    std::vector<ResourceValues> requestsFor(const std::string& workload, const std::vector<std::string>& cpusets)
    {
        const Budget now = budget();
        const Dictionary status = client().getResourceStatus(workload);
        const ResourceValues desired = desiredOf(status);
        const ResourceValues actual = actualOf(status);
        const std::uint64_t heldCpu = counted(desired.cpuMillis ? desired.cpuMillis : actual.cpuMillis);
        const std::uint64_t heldMemory = counted(desired.memoryMax ? desired.memoryMax : actual.memoryMax);

        const std::uint64_t cpuEdge = now.cpuAvailable + heldCpu;
        const std::set<std::uint64_t> cpuValues{
            1, 100, std::max<std::uint64_t>(cpuEdge / 2, 1), std::max<std::uint64_t>(cpuEdge, 2) - 1,
            std::max<std::uint64_t>(cpuEdge, 1), cpuEdge + 1, now.cpuCapacity, now.cpuCapacity + 1, noLimit};
        const std::uint64_t memoryEdge = std::max(now.memoryAvailable + heldMemory, 4 * mebibyte);
        const std::set<std::uint64_t> memoryValues{
            4 * mebibyte, smallestRealMemoryLimit, memoryEdge, memoryEdge + mebibyte,
            now.memoryCapacity, now.memoryCapacity + mebibyte, noLimit};

        std::vector<ResourceValues> requests;
        for (const auto cpu : cpuValues)
        {
            requests.push_back({.cpuMillis = cpu});
            for (const auto memory : memoryValues)
            {
                requests.push_back({.cpuMillis = cpu, .memoryMax = memory});
            }
            for (const auto& cpuset : cpusets)
            {
                requests.push_back({.cpuMillis = cpu, .allowedCpus = cpuset});
            }
        }
        for (const auto memory : memoryValues)
        {
            requests.push_back({.memoryMax = memory});
            requests.push_back({.memoryMax = memory, .allowedCpus = cpusets.back()});
        }
        for (const auto& cpuset : cpusets)
        {
            requests.push_back({.allowedCpus = cpuset});
        }
        return requests;
    }

    // Asks every request through ValidateResourceUpdate and a dry-run
    // UpdateResources; the single-key ones also for real (then undone).
    void sweep(const std::string& workload, const std::vector<std::string>& cpusets)
    {
        std::map<std::string, int> answers;
        for (const auto& request : requestsFor(workload, cpusets))
        {
            SCOPED_TRACE(workload + ":" + describe(request));
            const auto [allowed, reason] = client().validateResourceUpdate(workload, request.toDictionary());
            const auto error = errorOf([&] { client().updateResources(workload, request, dryRun()); });
            expectSameAnswer(allowed, reason, error);
            ++answers[allowed ? "allowed" : error ? error->getName() : "?"];
            if (isSingleKey(request) && (!request.memoryMax || *request.memoryMax >= smallestRealMemoryLimit))
            {
                updateForReal(workload, request, allowed, reason);
            }
        }
        // The grid reaches both sides of the edge and beyond the node.
        EXPECT_GT(answers["allowed"], 0);
        EXPECT_GT(answers[insufficientResources], 0);
        EXPECT_GT(answers[infeasible], 0);
    }

    static void expectSameAnswer(bool allowed, const std::string& reason, const std::optional<sdbus::Error>& error)
    {
        if (allowed)
        {
            EXPECT_FALSE(error) << "ValidateResourceUpdate allowed it; UpdateResources answered " << error->getName()
                                << ": " << error->getMessage();
            EXPECT_EQ(reason, "");
            return;
        }
        ASSERT_TRUE(error) << "ValidateResourceUpdate refused it (" << reason << "); UpdateResources succeeded";
        EXPECT_TRUE(error->getName() == insufficientResources || error->getName() == infeasible) << error->getName();
        EXPECT_EQ(error->getMessage(), reason);
    }

    static bool isSingleKey(const ResourceValues& request) { return request.toDictionary().size() == 1; }

    // The real update answers as validation did; an admitted one is undone
    // (and an unmanaged workload forgotten again), leaving the budget as it
    // was.
    void updateForReal(const std::string& workload, const ResourceValues& request, bool allowed,
                       const std::string& reason)
    {
        const Budget before = budget();
        const Dictionary statusBefore = client().getResourceStatus(workload);
        const auto error = errorOf([&] { client().updateResources(workload, request); });
        expectSameAnswer(allowed, reason, error);
        if (error)
        {
            EXPECT_EQ(budget(), before);
            return;
        }
        client().updateResources(workload, restoring(statusBefore, request));
        if (entryOf<std::uint64_t>(statusBefore, "Generation") == 0)
        {
            client().forget(workload);
        }
        EXPECT_EQ(budget(), before) << "after undoing " << describe(request);
    }

    // The keys of `request` at what `status` had: desired where there was
    // a desired value, else what the cgroup held.
    static ResourceValues restoring(const Dictionary& status, const ResourceValues& request)
    {
        const ResourceValues desired = desiredOf(status);
        const ResourceValues actual = actualOf(status);
        const auto previous = [](const auto& wanted, const auto& held) { return wanted ? wanted : held; };
        ResourceValues restore;
        if (request.cpuMillis)
        {
            restore.cpuMillis = previous(desired.cpuMillis, actual.cpuMillis);
        }
        if (request.memoryMax)
        {
            restore.memoryMax = previous(desired.memoryMax, actual.memoryMax);
        }
        if (request.allowedCpus)
        {
            restore.allowedCpus = previous(desired.allowedCpus, actual.allowedCpus);
        }
        return restore;
    }

    std::vector<std::string> nodeCpusets() const { return {"", firstCpu(), nodeCpus(), cpuOutsideTheNode()}; }

    std::vector<unsigned> cpus_;
    std::optional<ScopedContainer> neighbour_;
};

TEST_F(ValidateSweepTest, ARunningManagedContainer)
{
    const auto container = runContainer("c");
    client().updateResources(container.name(), ResourceValues{.cpuMillis = 200, .memoryMax = 192 * mebibyte});
    const CgroupLimits before = CgroupLimits::read(container.cgroupPath());

    sweep(container.name(), nodeCpusets());

    EXPECT_EQ(CgroupLimits::read(container.cgroupPath()), before);
}

TEST_F(ValidateSweepTest, AStoppedManagedContainer)
{
    const auto container = runContainer("c", {"--cpus=0.5"});
    client().updateResources(container.name(), ResourceValues{.memoryMax = 192 * mebibyte});
    ASSERT_TRUE(podman().run({"stop", "--time", "0", container.name()}).succeeded());
    client().reconcile(container.name());

    sweep(container.name(), nodeCpusets());
}

TEST_F(ValidateSweepTest, AnUnmanagedContainer)
{
    const auto container = runContainer("c", {"--cpus=0.5", "--memory=128m"});
    // A full pass: the daemon has counted it, whatever its event said.
    client().reconcile("");
    const CgroupLimits before = CgroupLimits::read(container.cgroupPath());

    sweep(container.name(), nodeCpusets());

    EXPECT_EQ(CgroupLimits::read(container.cgroupPath()), before);
    EXPECT_EQ(entryOf<std::uint64_t>(client().getResourceStatus(container.name()), "Generation"), 0U);
}

TEST_F(ValidateSweepTest, AContainerWhoseParentCgroupAllowsOneCpu)
{
    if (cpus_.size() < 2)
    {
        GTEST_SKIP() << "a parent restricted to one CPU needs a node with two";
    }
    // The parent's cpuset is set before runc creates the container below
    // it, which then inherits it.
    const ScopedCgroupParent parent("sweep");
    std::filesystem::create_directories(parent.directory("cpuset"));
    std::ifstream rootMems("/sys/fs/cgroup/cpuset/cpuset.mems");
    parent.write("cpuset", "cpuset.mems", std::string(std::istreambuf_iterator<char>(rootMems), {}));
    parent.write("cpuset", "cpuset.cpus", firstCpu());
    const auto container = runContainer("c", {"--cgroup-parent=" + parent.path()});
    ASSERT_EQ(CgroupLimits::read(container.cgroupPath()).cpus, firstCpu());

    const std::string outsideTheParent = std::to_string(cpus_[1]);
    const auto [allowed, reason] = client().validateResourceUpdate(
        container.name(), ResourceValues{.allowedCpus = outsideTheParent}.toDictionary());
    EXPECT_FALSE(allowed);
    EXPECT_EQ(reason, "asked CPUs " + outsideTheParent + ", the workload's parent cgroup allows " + firstCpu());

    sweep(container.name(), {"", firstCpu(), outsideTheParent, nodeCpus(), cpuOutsideTheNode()});
}

} // namespace
} // namespace resized::integration
