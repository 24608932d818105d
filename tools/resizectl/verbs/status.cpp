#include <string>
#include <vector>

#include "status_format.h"
#include "verbs/verb.h"

namespace resized::ctl {

namespace {

Dictionary fetchStatus(Client& client, const std::string& workload)
{
    return client.call([&](ManagerProxy& manager) { return manager.GetResourceStatus(workload); });
}

std::vector<Dictionary> fetchAllStatuses(Client& client)
{
    const auto workloads = client.call([](ManagerProxy& manager) { return manager.ListWorkloads(); });
    std::vector<Dictionary> statuses;
    for (const auto& workload : workloads)
        if (auto status = findStatus(client, workload.get<0>()))
            statuses.push_back(std::move(*status));
    return statuses;
}

ExitStatus showAll(Session& session)
{
    const auto statuses = fetchAllStatuses(session.client());
    if (session.options().json)
        printStatuses(statuses, session.options());
    else
        printTable(makeStatusTable(statuses), session.options(), "workload");
    return ExitStatus::Success;
}

// Like systemctl status: show every workload that can be shown, report the
// others, and exit with the status of the first failure.
ExitStatus showEach(Session& session, const std::vector<std::string>& workloads)
{
    std::vector<Dictionary> statuses;
    ExitStatus result = ExitStatus::Success;
    for (const auto& workload : workloads) {
        try {
            statuses.push_back(fetchStatus(session.client(), session.workloadNamed(workload)));
        } catch (const CommandError& error) {
            if (error.status() != ExitStatus::NoSuchWorkload)
                throw;
            printError(error.what());
            if (result == ExitStatus::Success)
                result = error.status();
        }
    }
    printStatuses(statuses, session.options());
    return result;
}

}  // namespace

std::optional<Dictionary> findStatus(Client& client, const std::string& workload)
{
    try {
        return fetchStatus(client, workload);
    } catch (const CommandError& error) {
        if (error.status() != ExitStatus::NoSuchWorkload)
            throw;
        return std::nullopt;
    }
}

void addStatusVerb(CLI::App& app, VerbAction& selected)
{
    auto* command = app.add_subcommand("status", "Show the desired and actual limits of workloads");
    auto workloads = std::make_shared<std::vector<std::string>>();
    command->add_option("workload", *workloads,
                        kWorkloadHelp + ". Without one, a table of every workload resized knows; "
                        "with names, a detailed block for each");
    command->footer("Examples:\n"
                     "  resizectl status\n"
                     "  resizectl status web db\n"
                     "  resizectl status --json web");
    command->callback([&selected, workloads] {
        selected = [workloads](Session& session) {
            return workloads->empty() ? showAll(session) : showEach(session, *workloads);
        };
    });
}

}  // namespace resized::ctl
