#include <exception>
#include <iostream>

#include <CLI/CLI.hpp>

#include "build_config.h"
#include "usage_error.h"
#include "verbs/verb.h"

namespace {

constexpr const char* kDescription =
    "resizectl: change the CPU and memory limits of running containers in place, through resized.\n"
    "Talks to the daemon io.resized1 on the system bus.";

// Below every command's help, not only resizectl --help: a user who asks
// `resizectl set --help` needs the units and exit statuses as much.
constexpr const char* kFooter =
    "Quantities: CPU as 1.5, 1500m or 2 (CPUs); memory as 512m, 2g, 512Mi or bytes (powers of 1024);\n"
    "'max' means no limit.\n"
    "Exit status: 0 success, 1 failure, 2 usage error, 3 change refused (validate), 4 invalid argument,\n"
    "5 no such workload, 6 insufficient resources, 7 infeasible, 8 memory in use, 9 apply failed,\n"
    "10 runtime unavailable, 11 access denied, 12 resized not running, 13 not supported, 14 no such pool,\n"
    "15 disruption budget exhausted, 16 no such plan, 17 plan outdated, 18 plan cancelled.\n"
    "See resizectl(1).";

const CLI::Validator kHostName(
    [](const std::string& text) -> std::string { return text.empty() ? "the host name is empty" : ""; }, "");

const CLI::Validator kMachineName(
    [](const std::string& text) -> std::string {
        return resized::ctl::isMachineName(text) ? "" : "'" + text + "' is not a container name systemd knows";
    },
    "");

}  // namespace

int main(int argc, char** argv)
{
    using namespace resized::ctl;

    CLI::App app(kDescription, "resizectl");
    // Global options may follow the verb, as in `resizectl list --json`.
    app.fallthrough();
    app.require_subcommand(1);
    app.set_version_flag("--version", RESIZED_VERSION, "Print the version and exit");

    GlobalOptions options;
    bool noLegend = false;
    std::string host;
    std::string machine;
    app.add_flag("--json", options.json, "Machine-readable output: JSON, D-Bus key names, exact integers");
    app.add_flag("--no-legend", noLegend, "Leave out column headers, footers and hints");
    auto* hostOption = app.add_option("-H,--host", host, "Talk to resized on a remote host, over ssh (as systemctl -H)")
                           ->type_name("[USER@]HOST")
                           ->check(kHostName);
    app.add_option("-M,--machine", machine, "Talk to resized inside a local container (as systemctl -M)")
        ->type_name("CONTAINER")
        ->check(kMachineName)
        ->excludes(hostOption);

    VerbAction selected;
    addStatusVerb(app, selected);
    addListVerb(app, selected);
    addSetVerb(app, selected);
    addValidateVerb(app, selected);
    addNodeVerb(app, selected);
    addReconcileVerb(app, selected);
    addForgetVerb(app, selected);
    addHistoryVerb(app, selected);
    addMetricsVerb(app, selected);
    addWatchVerb(app, selected);
    addAutoscaleVerb(app, selected);
    addReportVerb(app, selected);
    addPoolVerb(app, selected);
    addPlanVerb(app, selected);
    addTopVerb(app, selected);
    app.footer(kFooter);
    appendFooterEverywhere(app, kFooter);

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& error) {
        if (const auto explanation = explainUnknownWord(app, error)) {
            printError(*explanation);
            return static_cast<int>(ExitStatus::Usage);
        }
        // --help and --version are "errors" with exit code 0.
        return app.exit(error) == 0 ? static_cast<int>(ExitStatus::Success) : static_cast<int>(ExitStatus::Usage);
    }
    options.legend = !noLegend;
    if (!host.empty())
        options.target = BusTarget{BusTarget::Kind::Host, host};
    else if (!machine.empty())
        options.target = BusTarget{BusTarget::Kind::Machine, machine};

    Session session(options);
    try {
        return static_cast<int>(selected(session));
    } catch (const CommandError& error) {
        printError(error.what());
        return static_cast<int>(error.status());
    } catch (const std::exception& error) {
        printError(error.what());
        return static_cast<int>(ExitStatus::Failure);
    }
}
