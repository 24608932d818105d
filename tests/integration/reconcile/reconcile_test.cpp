#include "reconcile_test.h"

#include "support/cgroup_v1.h"
#include "support/test_label.h"
#include "support/wait.h"

#include <cctype>
#include <fstream>
#include <iostream>
#include <stdexcept>

namespace resized::integration
{

namespace
{

void writeFile(const std::filesystem::path& file, const std::string& text)
{
    std::filesystem::create_directories(file.parent_path());
    std::ofstream stream(file);
    stream << text;
    if (!stream.flush())
    {
        throw std::runtime_error("cannot write " + file.string());
    }
}

} // namespace

void ReconcileTest::SetUp()
{
    IntegrationTest::SetUp();
    if (IsSkipped())
    {
        return;
    }
    podman_.emplace(environment());
    options_ = DaemonOptions::forEnvironment(environment());
    const auto directory = environment().directory / "reconcile-tests" / currentTestLabel();
    options_.stateDirectory = directory / "state";
    options_.logFile = directory / "resized.log";
    options_.configFile = directory / "resized.conf";
    writeConfig("[Node]\nReservedCPU=0\n[Sync]\nIntervalSec=3600\n");
}

void ReconcileTest::TearDown()
{
    if (daemon_ && HasFailure())
    {
        std::cerr << "The daemon's log ends with:\n" << daemon_->log() << "\n";
    }
}

void ReconcileTest::writeConfig(const std::string& text) const
{
    writeFile(options_.configFile, text);
}

void ReconcileTest::writeDropIn(const std::string& name, const std::string& text) const
{
    writeFile(options_.configFile.string() + ".d/" + name, text);
}

void ReconcileTest::startDaemon(const std::vector<std::string>& extraEnvironment)
{
    client_.reset();
    daemon_.reset();
    DaemonOptions options = options_;
    options.extraEnvironment = extraEnvironment;
    daemon_.emplace(options);
    client_.emplace();
    waitForEventStream();
}

void ReconcileTest::startDaemonWithoutPodman()
{
    client_.reset();
    daemon_.reset();
    DaemonOptions options = options_;
    options.podmanSocket = options.stateDirectory.parent_path() / "no-podman.sock";
    daemon_.emplace(options);
    client_.emplace();
}

// A container started now, with a CPU limit of its own, counts in
// CpuAllocatedMillis only through its start event or through the pass the
// daemon makes when the stream opens, which comes before any event. Once it
// is removed again (and no longer counted), the test starts from a quiet
// daemon.
void ReconcileTest::waitForEventStream()
{
    constexpr std::uint64_t probeMillis = 100;
    const auto allocated = [this] { return client().managerNumber("CpuAllocatedMillis"); };
    const std::uint64_t before = allocated();
    {
        const ScopedContainer probe(podman(), containerName("stream-probe"),
                                    {"--cpus=" + std::to_string(probeMillis / 1000.0)});
        if (!waitUntil([&] { return allocated() == before + probeMillis; }, backgroundTimeout))
        {
            throw std::runtime_error("resized does not follow Podman's events");
        }
    }
    if (!waitUntil([&] { return allocated() == before; }, backgroundTimeout))
    {
        throw std::runtime_error("resized did not see its probe container go");
    }
}

ScopedContainer ReconcileTest::runContainer(const std::string& suffix,
                                            const std::vector<std::string>& podmanArguments) const
{
    return ScopedContainer(podman(), containerName(suffix), podmanArguments);
}

std::string ReconcileTest::containerName(const std::string& suffix)
{
    return currentTestLabel() + "-" + suffix;
}

CgroupLimits ReconcileTest::limitsOf(const ScopedContainer& container)
{
    return CgroupLimits::read(container.cgroupPath());
}

void ReconcileTest::writeBehindTheDaemon(const ScopedContainer& container,
                                         const std::string& controller,
                                         const std::string& file, const std::string& value)
{
    writeFile(CgroupV1(container.cgroupPath()).file(controller, file), value);
}

std::string ReconcileTest::syncStateOf(const std::string& workload)
{
    return entryOf<std::string>(client().getResourceStatus(workload), "SyncState");
}

std::string ReconcileTest::updateStateOf(const std::string& workload)
{
    return entryOf<std::string>(client().getResourceStatus(workload), "UpdateState");
}

bool ReconcileTest::waitForCpuMillis(const ScopedContainer& container, std::uint64_t millis)
{
    const auto cgroupPath = container.cgroupPath();
    return waitUntil([&] { return CgroupLimits::read(cgroupPath).cpuMillis() == millis; },
                     backgroundTimeout);
}

bool ReconcileTest::waitForSyncState(const std::string& workload, const std::string& state)
{
    return waitUntil([&] { return syncStateOf(workload) == state; }, backgroundTimeout);
}

Dictionary cpuMillis(std::uint64_t millis)
{
    return ResourceValues{.cpuMillis = millis}.toDictionary();
}

} // namespace resized::integration
