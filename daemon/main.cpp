// resized: changes the CPU and memory limits of running containers in place,
// and keeps them. See design.md for the parts and docs/dbus-api.md for the API.

#include <signal.h>
#include <sys/resource.h>
#include <systemd/sd-daemon.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>

#include <sdbus-c++/sdbus-c++.h>
#include <spdlog/spdlog.h>

#include "bus/bus_event_source.h"
#include "bus/manager_object.h"
#include "bus/systemd_reload_watch.h"
#include "cgroup/driver_selector.h"
#include "config.h"
#include "logging.h"
#include "options.h"
#include "pool_files.h"
#include "runtime/podman_client.h"
#include "service/autoscaler.h"
#include "service/background_listing.h"
#include "service/background_lookup.h"
#include "service/event_loop.h"
#include "service/metrics.h"
#include "service/node.h"
#include "service/node_workloads.h"
#include "service/podman_source.h"
#include "service/plans.h"
#include "service/pools.h"
#include "service/resource_manager.h"
#include "service/runtime_watcher.h"
#include "service/systemd_unit_source.h"
#include "store/autoscale_store.h"
#include "store/state_directory_lock.h"
#include "store/state_store.h"

namespace {

constexpr const char* kBusName = "io.resized1";

resized::service::Settings settingsFrom(const resized::CommandLine& commandLine)
{
    auto settings = resized::loadConfig(commandLine.configFile, {});
    if (commandLine.stateDir)
        settings.stateDir = *commandLine.stateDir;
    if (commandLine.podmanSocket)
        settings.podmanSocket = *commandLine.podmanSocket;
    if (commandLine.cgroupRoot)
        settings.cgroupRoot = *commandLine.cgroupRoot;
    if (settings.poolDirectory.empty())
        settings.poolDirectory = std::filesystem::path(commandLine.configFile).parent_path() / "pools.d";
    return settings;
}

// Every sampled workload holds its counter files open (cgroup::UsageFiles):
// a thousand need more descriptors than the soft limit of 1024 a service
// gets, so take the hard limit, as systemd advises daemons to.
void raiseFileLimit()
{
    struct rlimit limit {};
    if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < limit.rlim_max) {
        limit.rlim_cur = limit.rlim_max;
        if (setrlimit(RLIMIT_NOFILE, &limit) != 0)
            spdlog::warn("cannot raise the open files limit: {}", std::strerror(errno));
    }
}

int run(const resized::CommandLine& commandLine)
{
    raiseFileLimit();
    using namespace resized;
    const service::Settings settings = settingsFrom(commandLine);
    std::filesystem::create_directories(settings.stateDir);
    // Before anything of the state is read: a second daemon must not recover
    // the first one's updates in flight.
    const store::StateDirectoryLock stateDirectoryLock(settings.stateDir);
    store::StateStore store(settings.stateDir / "state.db", settings.historyLimit);

    service::EventLoop loop;
    const service::NodeInfo node = service::readNodeInfo(settings.cgroupRoot);
    cgroup::DriverSelector drivers(settings.cgroupRoot, settings.cgroupDriver);
    // Before the manager: an update's answer, which the metrics count,
    // may come while the manager winds down.
    service::UsageSampler usageSampler(store, drivers);
    service::Metrics metrics(usageSampler);
    runtime::PodmanClient podman(settings.podmanSocket);
    service::PodmanContainerSource containers(podman);
    service::PodmanPodSource pods(podman);
    service::SystemdUnitSource units;
    // The listing thread's own connection: a libcurl handle serves one
    // thread.
    runtime::PodmanClient listingPodman(settings.podmanSocket);
    service::PodmanContainerSource listedContainers(listingPodman);
    service::PodmanPodSource listedPods(listingPodman);
    service::BackgroundListing podmanListing(loop, {&listedContainers, &listedPods});
    // The lookup thread's own sources, for the same reason; systemd's too,
    // as an sd-bus connection serves one thread.
    runtime::PodmanClient lookupPodman(settings.podmanSocket);
    service::PodmanContainerSource lookupContainers(lookupPodman);
    service::PodmanPodSource lookupPods(lookupPodman);
    service::SystemdUnitSource lookupUnits;
    service::BackgroundLookup lookup(loop,
                                     {.containers = &lookupContainers, .pods = &lookupPods, .units = &lookupUnits});
    service::ResourceManager manager(loop, settings, node, store,
                                     {.containers = &containers,
                                      .pods = &pods,
                                      .units = &units,
                                      .podmanListing = &podmanListing,
                                      .lookup = &lookup},
                                     drivers);
    manager.start();
    service::RuntimeWatcher runtimeWatcher(loop, manager.containerEvents(), settings.podmanSocket);

    store::AutoscaleStore autoscaleStore(store.database());
    service::Autoscaler autoscaler(loop, manager, autoscaleStore, drivers, store);
    autoscaler.start();
    metrics.publishRecommendations([&autoscaler] { return autoscaler.recommendations(); });
    metrics.publishAppMetrics([&autoscaler] { return autoscaler.appMetrics(); });
    metrics.publishCpuAssignments([&manager] { return manager.cpuAssignments(); });

    service::Pools pools(
        store, [&manager] { manager.poolsChanged(); },
        [&manager](const store::PoolRecord& pool) {
            return service::PoolUsage{manager.poolAllocated(pool), manager.poolUnheld(pool.name)};
        });
    pools.declare(loadPoolFiles(settings.poolDirectory));
    metrics.publishAllowedDisruptions([&pools] {
        std::map<std::string, uint64_t> allowed;
        for (const auto& pool : pools.list())
            if (const auto status = pools.status(pool.name); status.allowedDisruptions)
                allowed.emplace(pool.name, *status.allowedDisruptions);
        return allowed;
    });
    service::Plans plans(loop, store, manager);

    auto connection = sdbus::createSystemBusConnection();
    service::NodeWorkloads nodeWorkloads(podmanListing, store, drivers);
    bus::ManagerObject managerObject(*connection, loop, manager, autoscaler, metrics, pools, plans, nodeWorkloads,
                                     settings.adminGroup);
    managerObject.publishObjects();
    plans.start();
    bus::BusEventSource busSource(*connection, loop);
    bus::SystemdReloadWatch systemdReloadWatch(*connection, manager);
    // Before the name is taken: a client that sees it may stop us at once,
    // and SIGTERM must then end the loop, not the process.
    loop.onSignal(SIGHUP, [&] {
        try {
            const service::Settings reloaded = settingsFrom(commandLine);
            // Read before anything is applied: a bad file keeps it all.
            const auto declaredPools = loadPoolFiles(reloaded.poolDirectory);
            manager.reload(reloaded);
            pools.declare(declaredPools);
            managerObject.setAdminGroup(reloaded.adminGroup);
            spdlog::info("configuration reloaded from {}", commandLine.configFile);
        } catch (const std::exception& error) {
            // A bad file (ConfigError), or a drop-in folder that cannot be
            // read (std::filesystem::filesystem_error); a pool file's too.
            spdlog::error("{}; keeping the previous settings", error.what());
        }
    });
    loop.onSignal(SIGTERM, [&loop] { loop.exit(EXIT_SUCCESS); });
    loop.onSignal(SIGINT, [&loop] { loop.exit(EXIT_SUCCESS); });
    connection->requestName(kBusName);
    runtimeWatcher.start();

    loop.enableWatchdog();
    const auto budget = manager.budget();
    spdlog::info("serving {} (cgroup {}, {} CPU millis and {} bytes allocatable)", kBusName,
                 node.cgroupVersion, budget.capacity.cpuMillis, budget.capacity.memory);
    // A reserve of the whole node is a typo more often than a wish
    // ("ReservedCPU=250" for 250m): say so once, where it is set.
    if (budget.capacity.cpuMillis == 0)
        spdlog::warn("[Node] ReservedCPU= reserves every CPU of this node: no CPU is allocatable, and every "
                     "change that asks for CPU will be refused (a value without a unit counts whole CPUs; "
                     "250m is a quarter of one)");
    if (budget.capacity.memory == 0)
        spdlog::warn("[Node] ReservedMemory= reserves all of this node's memory: none is allocatable, and every "
                     "change that asks for memory will be refused");
    sd_notifyf(0, "READY=1\nSTATUS=Serving %s", kBusName);
    const int status = loop.run();
    sd_notify(0, "STOPPING=1");
    return status;
}

}  // namespace

int main(int argc, char** argv)
{
    const auto commandLine = resized::parseCommandLine(argc, argv);
    resized::setUpLogging(commandLine.logLevel);
    try {
        return run(commandLine);
    } catch (const std::exception& error) {
        spdlog::critical("{}", error.what());
        sd_notifyf(0, "STATUS=Failed: %s", error.what());
        return EXIT_FAILURE;
    }
}
