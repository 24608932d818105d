#include "testbed.h"

#include <fstream>
#include <iostream>
#include <stdexcept>

#include "emergency_stop.h"
#include "support/bus_names.h"
#include "support/cgroup_v1.h"

namespace resized::bench {

namespace {

constexpr const char* kBusName = "io.resized1";
constexpr auto kStartTimeout = std::chrono::seconds(60);

std::string nameOf(std::size_t index)
{
    return (index < 10 ? "bench-0" : "bench-") + std::to_string(index);
}

// The periodic sync is pushed out of the way: a pass landing inside a
// latency run would measure the sync, not the call. Its cost is measured on
// its own (Reconcile("")).
void writeConfig(const std::filesystem::path& file, const std::string& added = {})
{
    std::filesystem::create_directories(file.parent_path());
    std::ofstream(file) << "[Sync]\nIntervalSec=60min\n" << added;
}

}  // namespace

struct Testbed::Container {
    integration::ScopedContainer container;
    std::filesystem::path cpuQuotaFile;

    Container(const integration::PodmanCli& podman, std::string name)
        : container(podman, std::move(name)),
          cpuQuotaFile(integration::CgroupV1(container.cgroupPath()).file("cpu", "cpu.cfs_quota_us"))
    {
    }
};

Testbed::Testbed(integration::TestEnvironment environment)
    : environment_(std::move(environment)),
      podman_(environment_),
      daemonOptions_(integration::DaemonOptions::forEnvironment(environment_)),
      nameWatcher_(kBusName)
{
    daemonOptions_.logLevel = "info";
    daemonOptions_.checkInvariants = false;
    writeConfig(daemonOptions_.configFile);
    for (std::size_t index = 0; index < kContainerCount; ++index)
        containers_.push_back(std::make_unique<Container>(podman_, nameOf(index)));
}

Testbed::~Testbed()
{
    try {
        stopDaemon();
    } catch (const std::exception& error) {
        std::cerr << "resized-bench: stopping resized: " << error.what() << '\n';
    }
}

const std::string& Testbed::containerName(std::size_t index) const
{
    return containers_.at(index)->container.name();
}

std::optional<std::int64_t> Testbed::cpuQuotaUs(std::size_t index) const
{
    std::ifstream file(containers_.at(index)->cpuQuotaFile);
    std::int64_t quota = 0;
    if (!(file >> quota))
        return std::nullopt;
    return quota;
}

std::filesystem::path Testbed::stateDirectory(const std::string& purpose) const
{
    const auto directory = environment_.directory / "bench-state" / purpose;
    std::filesystem::remove_all(directory);
    std::filesystem::create_directories(directory);
    return directory;
}

std::string Testbed::cpusetOf(std::size_t index) const
{
    return integration::CgroupV1(containers_.at(index)->container.cgroupPath()).read("cpuset", "cpuset.cpus");
}

Duration Testbed::startDaemon(const std::filesystem::path& stateDirectory, const std::string& configuration)
{
    stopDaemon();
    writeConfig(daemonOptions_.configFile, configuration);
    auto options = daemonOptions_;
    options.stateDirectory = stateDirectory;
    nameWatcher_.reset();
    const auto spawned = BusNameWatcher::Clock::now();
    daemon_.emplace(options, kStartTimeout);
    const auto owned = nameWatcher_.waitForOwner(std::chrono::seconds(5));
    const auto pid = integration::busNameOwnerPid(kBusName);
    if (!pid)
        throw std::runtime_error("resized started but owns no bus name");
    daemonPid_ = *pid;
    setDaemonToKill(daemonPid_);
    return owned - spawned;
}

void Testbed::stopDaemon()
{
    if (!daemon_)
        return;
    const int status = daemon_->stop();
    setDaemonToKill(0);
    daemonPid_ = 0;
    daemon_.reset();
    if (status != 0)
        throw std::runtime_error("resized exited with status " + std::to_string(status) + " on SIGTERM");
}

pid_t Testbed::daemonPid() const
{
    if (!daemon_)
        throw std::logic_error("no resized is running");
    return daemonPid_;
}

}  // namespace resized::bench
