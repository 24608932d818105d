#include "table.h"
#include "verbs/verb.h"

namespace resized::ctl {

namespace {

ExitStatus listWorkloads(Session& session)
{
    const auto workloads = session.client().call([](ManagerProxy& manager) { return manager.ListWorkloads(); });
    if (session.options().json) {
        nlohmann::json array = nlohmann::json::array();
        for (const auto& workload : workloads)
            array.push_back({{"Workload", workload.get<0>()},
                             {"SyncState", workload.get<1>()},
                             {"UpdateState", workload.get<2>()},
                             {"ObjectPath", std::string(workload.get<3>())}});
        printJson(array);
        return ExitStatus::Success;
    }
    Table table({"NAME", "SYNC", "UPDATE", "OBJECT"});
    for (const auto& workload : workloads)
        table.addRow({workload.get<0>(), workload.get<1>(), workload.get<2>(), std::string(workload.get<3>())});
    printTable(table, session.options(), "workload");
    return ExitStatus::Success;
}

}  // namespace

void addListVerb(CLI::App& app, VerbAction& selected)
{
    auto* command = app.add_subcommand("list", "List the workloads resized knows, with their states");
    command->footer("Columns: NAME (container name), SYNC (desired vs. actual), UPDATE (last change), "
                    "OBJECT (D-Bus object path).\n"
                    "Example:\n"
                    "  resizectl list --no-legend");
    command->callback([&selected] { selected = listWorkloads; });
}

}  // namespace resized::ctl
