#include <iostream>

#include "node_format.h"
#include "verbs/verb.h"

namespace resized::ctl {

namespace {

// Who holds the exclusive CPUs: asked only when some CPUs are exclusive.
std::vector<HeldSlice> heldSlices(Client& client, const Dictionary& properties)
{
    if (lookup<std::string>(properties, "ExclusiveCpuSet", "").empty())
        return {};
    std::vector<Dictionary> statuses;
    for (const auto& workload : client.call([](ManagerProxy& manager) { return manager.ListWorkloads(); }))
        if (auto status = findStatus(client, workload.get<0>()))
            statuses.push_back(std::move(*status));
    return slicesOf(statuses);
}

ExitStatus showNode(Session& session)
{
    const Dictionary properties = session.client().call(
        [](ManagerProxy& manager) { return manager.GetAll(io::resized1::Manager_proxy::INTERFACE_NAME); });
    if (session.options().json)
        printJson(toJson(properties));
    else
        std::cout << formatNode(properties, heldSlices(session.client(), properties), session.options().legend);
    return ExitStatus::Success;
}

}  // namespace

void addNodeVerb(CLI::App& app, VerbAction& selected)
{
    auto* command =
        app.add_subcommand("node", "Show the node's capacity, allocations, CPU manager and daemon state");
    command->footer("Available = Capacity - Allocated - Reserved, per resource. Capacity is the node's total\n"
                    "less the configured system reserve. Raising a workload's limit needs the difference\n"
                    "to be available; lowering one is always admitted. Shared CPUs are where every\n"
                    "container without exclusive CPUs runs.");
    command->callback([&selected] { selected = showNode; });
}

}  // namespace resized::ctl
