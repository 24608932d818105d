#include <iostream>
#include <string>

#include "verbs/verb.h"

namespace resized::ctl {

void addMetricsVerb(CLI::App& app, VerbAction& selected)
{
    auto* command = app.add_subcommand("metrics", "Print resized's metrics in the Prometheus text format");
    command->footer("The same text a scrape of resized-metrics.socket gets: update calls by result and\n"
                    "their duration, drift repaired, and each running managed workload's CPU and\n"
                    "memory use against its limits. A workload's CPU rate in millicores is measured\n"
                    "since the previous scrape, so the first one leaves it out.\n"
                    "Example:\n"
                    "  resizectl metrics | grep '^resized_workload_memory'");
    command->callback([&selected] {
        selected = [](Session& session) {
            std::cout << session.client().call([](ManagerProxy& manager) { return manager.GetMetrics(); })
                      << std::flush;
            return ExitStatus::Success;
        };
    });
}

}  // namespace resized::ctl
