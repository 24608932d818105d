#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "parsed_option.h"
#include "quantity_format.h"
#include "time_format.h"
#include "verbs/verb.h"

namespace resized::ctl {

namespace {

struct HistoryOptions {
    std::string workload;
    uint64_t lines = 0;
};

std::string textOf(const Dictionary& entry, const std::string& key)
{
    return find<std::string>(entry, key).value_or("");
}

Table makeHistoryTable(const std::vector<Dictionary>& entries)
{
    Table table({"TIME", "WORKLOAD", "ACTOR", "OPERATION", "REQUEST", "RESULT", "MESSAGE"});
    for (const auto& entry : entries) {
        const auto time = Clock::time_point(std::chrono::microseconds(find<uint64_t>(entry, "TimeUSec").value_or(0)));
        table.addRow({formatIsoTimestamp(time), textOf(entry, "Workload"), textOf(entry, "Actor"),
                      textOf(entry, "Operation"),
                      describeResources(find<Dictionary>(entry, "Request").value_or(Dictionary{})),
                      textOf(entry, "Result"), readableSizes(textOf(entry, "Message"))});
    }
    return table;
}

ExitStatus showHistory(Session& session, const HistoryOptions& options)
{
    const auto entries = session.client().call(
        [&, workload = session.workloadNamed(options.workload)](ManagerProxy& manager) {
            return manager.GetHistory(workload, options.lines);
        });
    if (session.options().json) {
        nlohmann::json array = nlohmann::json::array();
        for (const auto& entry : entries)
            array.push_back(toJson(entry));
        printJson(array);
        return ExitStatus::Success;
    }
    printTable(makeHistoryTable(entries), session.options(), "call");
    return ExitStatus::Success;
}

}  // namespace

void addHistoryVerb(CLI::App& app, VerbAction& selected)
{
    auto* command = app.add_subcommand("history", "Show what callers asked of a workload, or of all, and how it ended");
    auto options = std::make_shared<HistoryOptions>();
    command->add_option("workload", options->workload,
                        kWorkloadHelp + "; every workload when omitted");
    command->add_option("-n,--lines", options->lines, "At most N entries, the newest (default: all that resized keeps)")
        ->type_name("N")
        ->check(atLeastOne("for all the entries resized keeps"));
    command->footer("Newest first. Columns: TIME (when the outcome was known, UTC), WORKLOAD, ACTOR\n"
                    "(uid:N for a caller; autoscale for the autoscaler; plan:N for plan N; reconcile for\n"
                    "resized's repairs and re-admissions; hook for limits written for the OCI hook), OPERATION (update, forget, repair), REQUEST (the\n"
                    "limits asked for or written), RESULT (success, pending, deferred, or the error),\n"
                    "MESSAGE. resized keeps the last [Update] HistoryLimit= entries; a forgotten\n"
                    "workload keeps its history.\n"
                    "Examples:\n"
                    "  resizectl history web\n"
                    "  resizectl history -n 20 --json");
    command->callback([&selected, options] {
        selected = [options](Session& session) { return showHistory(session, *options); };
    });
}

}  // namespace resized::ctl
