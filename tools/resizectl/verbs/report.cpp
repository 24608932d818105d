#include <map>
#include <memory>
#include <string>
#include <vector>

#include "autoscale_options.h"
#include "verbs/verb.h"

namespace resized::ctl {

namespace {

struct ReportRequest {
    std::string workload;
    std::map<std::string, double> values;
};

}  // namespace

void addReportVerb(CLI::App& app, VerbAction& selected)
{
    auto* command = app.add_subcommand(
        "report", "Report values of a workload's application metrics, for the autoscale policy's --metric");
    auto request = std::make_shared<ReportRequest>();
    command->add_option("workload", request->workload, kWorkloadHelp)->required();
    command
        ->add_option_function<std::vector<std::string>>(
            "values",
            [request](const std::vector<std::string>& texts) {
                for (const auto& text : texts) {
                    const auto value = parseReportedValue(text);
                    if (!value)
                        throw CLI::ValidationError("values", "'" + text + "' is not NAME=VALUE with a number");
                    request->values.insert_or_assign(value->first, value->second);
                }
            },
            "NAME=VALUE: the metric's current value, a number")
        ->required();
    command->footer("Each value counts until it is older than the policy's --metric-max-age; a metric the\n"
                    "policy does not name is kept all the same. Run it from the application or its\n"
                    "monitoring at least as often as the policy's interval.\n"
                    "Examples:\n"
                    "  resizectl report web latency_ms=87.5\n"
                    "  resizectl report game fps=58 frame_ms=17.2");
    command->callback([&selected, request] {
        selected = [request](Session& session) {
            const std::string workload = session.workloadNamed(request->workload);
            session.client().call(
                [&](ManagerProxy& manager) { manager.ReportMetrics(workload, request->values); });
            return ExitStatus::Success;
        };
    });
}

}  // namespace resized::ctl
