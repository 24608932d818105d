#include <map>
#include <string>
#include <vector>

#include "verbs/verb.h"

namespace resized::ctl {

namespace {

struct ListOptions {
    bool managedOnly = false;
};

// Whether the daemon reaches Podman now: without it, ListNodeWorkloads
// holds only the workloads resized manages.
bool runtimeConnected(Client& client)
{
    return client
        .call([](ManagerProxy& manager) {
            return manager.Get(io::resized1::Manager_proxy::INTERFACE_NAME, "RuntimeConnected");
        })
        .get<bool>();
}

ExitStatus listWorkloads(Session& session, const ListOptions& options)
{
    Client& client = session.client();
    // Both from the daemon, which sees every container of its node: no
    // access to Podman is needed here, and -H and -M list the remote node.
    const auto nodeWorkloads = client.call([](ManagerProxy& manager) { return manager.ListNodeWorkloads(); });
    std::map<std::string, std::string> managedPaths;
    for (const auto& workload : client.call([](ManagerProxy& manager) { return manager.ListWorkloads(); }))
        managedPaths.emplace(workload.get<0>(), std::string(workload.get<3>()));

    std::vector<ListedWorkload> listed;
    for (const auto& entry : nodeWorkloads) {
        const std::string name = lookup<std::string>(entry, "Name");
        if (!lookup<bool>(entry, "Managed")) {
            if (!options.managedOnly)
                listed.push_back({entry, {}, {}, {}});
            continue;
        }
        // The status compares the limits read now with the desired ones: a
        // change made behind resized's back shows as drift at once.
        const auto path = managedPaths.find(name);
        if (const auto status = findStatus(client, name); status && path != managedPaths.end())
            listed.push_back({entry, lookup<std::string>(*status, "SyncState", "unknown"),
                              lookup<std::string>(*status, "UpdateState", "unknown"), path->second});
    }
    if (!options.managedOnly && !runtimeConnected(client))
        printError("resized does not reach Podman now: only the workloads it manages are listed");
    printListing(listed, session.options());
    return ExitStatus::Success;
}

}  // namespace

void addListVerb(CLI::App& app, VerbAction& selected)
{
    auto* command = app.add_subcommand(
        "list", "List the node's containers, pods and managed units with their run state and the limits in force");
    auto options = std::make_shared<ListOptions>();
    command->add_flag("--managed", options->managedOnly, "Only the workloads resized manages");
    command->footer("Columns: NAME (container name; pod:NAME, unit:NAME), MANAGED (whether resized manages it),\n"
                    "STATE (running, paused, stopped, removed, absent), SYNC (desired vs. actual) and UPDATE\n"
                    "(last change) of a managed workload, CPU and MEMORY (the limits in force, read from the\n"
                    "cgroup; - when it has none, as a stopped container).\n"
                    "The daemon lists them: no access to Podman is needed, and -H or -M lists another node.\n"
                    "Examples:\n"
                    "  resizectl list\n"
                    "  resizectl list --managed --no-legend");
    command->callback([&selected, options] {
        selected = [options](Session& session) { return listWorkloads(session, *options); };
    });
}

}  // namespace resized::ctl
