#include "daemon_test.h"

#include "support/command.h"
#include "support/test_label.h"
#include "support/wait.h"

#include <sched.h>

#include <cctype>
#include <fstream>
#include <iostream>
#include <stdexcept>

namespace resized::integration
{

std::set<unsigned> affinityCpus()
{
    cpu_set_t mask;
    CPU_ZERO(&mask);
    if (sched_getaffinity(0, sizeof(mask), &mask) != 0)
    {
        throw std::runtime_error("sched_getaffinity failed");
    }
    std::set<unsigned> cpus;
    for (unsigned cpu = 0; cpu < CPU_SETSIZE; ++cpu)
    {
        if (CPU_ISSET(cpu, &mask))
        {
            cpus.insert(cpu);
        }
    }
    return cpus;
}

void DaemonTest::SetUp()
{
    IntegrationTest::SetUp();
    if (IsSkipped())
    {
        return;
    }
    podman_.emplace(environment());
    daemonOptions_ = DaemonOptions::forEnvironment(environment());
    const auto directory = environment().directory / "daemon-tests" / currentTestLabel();
    daemonOptions_.stateDirectory = directory / "state";
    daemonOptions_.logFile = directory / "resized.log";
    daemonOptions_.configFile = directory / "resized.conf";
    std::filesystem::create_directories(directory);
    // The periodic sync stays out of the way: every reconciliation a test
    // sees is one it asked for.
    std::ofstream(daemonOptions_.configFile)
        << "[Node]\n"
        << "ReservedCPU=" << reservedCpuMillis << "m\n"
        << "ReservedMemory=" << reservedMemory / mebibyte << "Mi\n"
        << "[Sync]\n"
        << "IntervalSec=3600\n";
    startDaemon();
}

void DaemonTest::TearDown()
{
    if (daemon_ && HasFailure())
    {
        std::cerr << "The daemon's log ends with:\n" << daemon_->log() << "\n";
    }
}

void DaemonTest::startDaemon()
{
    client_.reset();
    daemon_.reset();
    daemon_.emplace(daemonOptions_);
    client_.emplace();
}

ScopedContainer DaemonTest::runContainer(const std::string& suffix,
                                         const std::vector<std::string>& podmanArguments)
{
    return ScopedContainer(podman(), containerName(suffix), podmanArguments);
}

std::string DaemonTest::containerName(const std::string& suffix) const
{
    return currentTestLabel() + "-" + suffix;
}

bool DaemonTest::cpuAllocationReaches(std::uint64_t millis)
{
    return waitUntil([&] { return client().managerNumber("CpuAllocatedMillis") == millis; },
                     std::chrono::seconds(30));
}

std::future<std::optional<sdbus::Error>>
    DaemonTest::startMemoryShrink(const ScopedContainer& container, const ResourceValues& request,
                                  std::chrono::microseconds reclaimTimeout)
{
    const std::uint64_t softLimitBefore =
        CgroupLimits::read(container.cgroupPath()).memorySoftLimit;
    auto pending = std::async(std::launch::async, [name = container.name(), request, reclaimTimeout] {
        ResizedClient ownClient;
        return errorOf([&] {
            ownClient.updateResources(
                name, request,
                {{"ReclaimTimeoutUSec",
                  sdbus::Variant(static_cast<std::uint64_t>(reclaimTimeout.count()))}});
        });
    });
    if (!waitUntil(
            [&] {
                return CgroupLimits::read(container.cgroupPath()).memorySoftLimit !=
                       softLimitBefore;
            },
            std::chrono::seconds(30)))
    {
        throw std::runtime_error("the memory shrink of " + container.name() + " never began");
    }
    return pending;
}

void ManagedContainerTest::SetUp()
{
    DaemonTest::SetUp();
    if (IsSkipped())
    {
        return;
    }
    // Only once the daemon has handled the container's start event is it
    // managed, so that no repair of that start races a test.
    container_.emplace(podman(), containerName("c"), std::vector<std::string>{"--cpus=0.1"});
    ASSERT_TRUE(daemon().waitForStartEvent(name())) << "resized did not see the container start";
    ASSERT_TRUE(cpuAllocationReaches(100));
    client().updateResources(name(), managed);
}

void ManagedContainerTest::TearDown()
{
    container_.reset();
    DaemonTest::TearDown();
}

std::string DaemonTest::callAsNobody(const std::vector<std::string>& arguments)
{
    std::vector<std::string> argv{"runuser", "-u", "nobody", "--", BUS_CALLER_BINARY};
    argv.insert(argv.end(), arguments.begin(), arguments.end());
    const CommandResult result = runCommand(argv);
    if (!result.succeeded())
    {
        throw std::runtime_error("bus_caller failed: " + result.standardError);
    }
    std::string output = result.standardOutput;
    while (!output.empty() && output.back() == '\n')
    {
        output.pop_back();
    }
    return output;
}

} // namespace resized::integration
