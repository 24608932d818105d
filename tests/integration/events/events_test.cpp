#include "events_test.h"

#include "support/test_label.h"
#include "support/wait.h"

#include <cctype>
#include <fstream>
#include <iostream>
#include <stdexcept>

namespace resized::integration::events
{

void EventsTest::SetUp()
{
    IntegrationTest::SetUp();
    if (IsSkipped())
    {
        return;
    }
    podman_.emplace(environment());
    const auto directory = environment().directory / "events" / currentTestLabel("ev");
    std::filesystem::create_directories(directory);
    daemonOptions_ = DaemonOptions::forEnvironment(environment());
    daemonOptions_.stateDirectory = directory / "state";
    daemonOptions_.logFile = directory / "resized.log";
    daemonOptions_.configFile = directory / "resized.conf";
    std::ofstream(daemonOptions_.configFile) << "[Sync]\nIntervalSec=3600\n";
    bus_.emplace();
}

void EventsTest::TearDown()
{
    if (daemon_ && HasFailure())
    {
        std::cerr << "The daemon's log ends with:\n" << daemon_->log() << "\n";
    }
    daemon_.reset();
}

void EventsTest::startDaemon()
{
    daemon_.reset();
    daemon_.emplace(daemonOptions_);
}

void EventsTest::stopDaemon()
{
    ASSERT_TRUE(daemon_);
    ASSERT_EQ(daemon_->stop(), 0) << daemon_->log();
}

std::string EventsTest::nameFor(const std::string& suffix) const
{
    return currentTestLabel("ev") + "-" + suffix;
}

ScopedContainer EventsTest::runContainer(const std::string& suffix,
                                         const std::vector<std::string>& podmanArguments)
{
    return ScopedContainer(podman(), nameFor(suffix), podmanArguments);
}

void EventsTest::podmanOrThrow(const std::vector<std::string>& arguments) const
{
    const CommandResult result = podman().run(arguments);
    if (!result.succeeded())
    {
        std::string command = "podman";
        for (const auto& argument : arguments)
        {
            command += " " + argument;
        }
        throw std::runtime_error(command + " failed: " + result.standardError);
    }
}

bool EventsTest::waitForLimits(const std::filesystem::path& cgroupPath,
                               const Limits& limits)
{
    std::optional<Limits> found;
    const bool reached = waitUntil(
        [&] {
            found = readLimits(cgroupPath);
            return found == limits;
        },
        reactionTimeout, pollInterval);
    if (!reached)
    {
        std::cerr << cgroupPath.string() << ": waited for " << limits << ", the cgroup holds ";
        if (found)
        {
            std::cerr << *found << "\n";
        }
        else
        {
            std::cerr << "nothing readable\n";
        }
    }
    return reached;
}

bool EventsTest::waitForSynchronized(const std::string& workload)
{
    return waitUntil(
        [&] {
            return entryOf<std::string>(bus().resourceStatus(workload), "SyncState") ==
                   "synchronized";
        },
        reactionTimeout, pollInterval);
}

bool EventsTest::waitForCpuAllocated(std::uint64_t millis)
{
    return waitUntil([&] { return bus().cpuAllocatedMillis() == millis; },
                     reactionTimeout, pollInterval);
}

bool EventsTest::waitForRuntimeConnected(bool connected,
                                         std::chrono::milliseconds timeout)
{
    return waitUntil([&] { return bus().runtimeConnected() == connected; }, timeout,
                     pollInterval);
}

std::string EventsTest::containerIdOf(const std::string& name) const
{
    return podman().inspect(name, "{{.Id}}");
}

void EventsTest::expectDesiredLimitsOn(const ScopedContainer& container)
{
    EXPECT_TRUE(waitForLimits(container.cgroupPath(), desired)) << container.name();
    EXPECT_TRUE(waitForSynchronized(container.name())) << container.name();
    const Dictionary status = bus().resourceStatus(container.name());
    EXPECT_EQ(entryOf<std::string>(status, "ContainerId"), containerIdOf(container.name()));
    EXPECT_EQ(desiredOf(status), desired);
}

void EventsTest::reportDuration(const std::string& what,
                                std::chrono::steady_clock::time_point since)
{
    const auto milliseconds = std::chrono::duration_cast<std::chrono::milliseconds>(
                                  std::chrono::steady_clock::now() - since)
                                  .count();
    RecordProperty(what, std::to_string(milliseconds));
    std::cout << "[ measured ] " << what << ": " << milliseconds << " ms\n";
}

} // namespace resized::integration::events
