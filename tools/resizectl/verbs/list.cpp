#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "node_containers.h"
#include "verbs/verb.h"

namespace resized::ctl {

namespace {

struct ListOptions {
    bool managedOnly = false;
    std::string podmanSocket = defaultPodmanSocket();
};

// Podman is asked only on this machine: over -H or -M its socket is not
// the node's.
std::vector<std::string> unmanagedContainers(Session& session, const ListOptions& options,
                                             const std::set<std::string>& managed)
{
    if (options.managedOnly)
        return {};
    if (!session.options().target.isLocal()) {
        if (session.options().legend)
            printError("containers resized does not manage are listed only on the local machine");
        return {};
    }
    std::vector<std::string> unmanaged;
    try {
        for (auto& name : runningContainerNames(options.podmanSocket))
            if (!managed.contains(name))
                unmanaged.push_back(std::move(name));
    } catch (const CommandError& error) {
        printError(std::string("containers resized does not manage could not be listed: ") + error.what());
    }
    return unmanaged;
}

ExitStatus listWorkloads(Session& session, const ListOptions& options)
{
    Client& client = session.client();
    const auto workloads = client.call([](ManagerProxy& manager) { return manager.ListWorkloads(); });

    std::vector<ListedWorkload> listed;
    std::set<std::string> managed;
    for (const auto& workload : workloads) {
        managed.insert(workload.get<0>());
        if (auto status = findStatus(client, workload.get<0>()))
            listed.push_back({std::move(*status), true, std::string(workload.get<3>())});
    }
    for (const auto& name : unmanagedContainers(session, options, managed))
        if (auto status = findStatus(client, name))
            listed.push_back({std::move(*status), false, {}});

    std::sort(listed.begin(), listed.end(), [](const ListedWorkload& a, const ListedWorkload& b) {
        return lookup<std::string>(a.status, "Workload") < lookup<std::string>(b.status, "Workload");
    });
    printListing(listed, session.options());
    return ExitStatus::Success;
}

}  // namespace

void addListVerb(CLI::App& app, VerbAction& selected)
{
    auto* command = app.add_subcommand(
        "list", "List the node's running containers with the limits in force, and the workloads resized manages");
    auto options = std::make_shared<ListOptions>();
    command->add_flag("--managed", options->managedOnly, "Only the workloads resized manages");
    command
        ->add_option("--podman-socket", options->podmanSocket,
                     "Podman's API socket, asked for the containers resized does not manage "
                     "(default: $RESIZED_PODMAN_SOCKET or /run/podman/podman.sock)")
        ->type_name("PATH");
    command->footer("Columns: NAME (container name), MANAGED (whether resized manages it), SYNC (desired vs.\n"
                    "actual), UPDATE (last change), CPU and MEMORY (the limits in force, read from the cgroup).\n"
                    "Containers resized does not manage are found through Podman, on the local machine only.\n"
                    "Examples:\n"
                    "  resizectl list\n"
                    "  resizectl list --managed --no-legend");
    command->callback([&selected, options] {
        selected = [options](Session& session) { return listWorkloads(session, *options); };
    });
}

}  // namespace resized::ctl
