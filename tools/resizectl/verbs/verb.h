#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "client.h"
#include "exit_status.h"
#include "output.h"

namespace resized::ctl {

// What a verb runs with: the global options, and the daemon connection made
// on first use, so that --help and purely local verbs need no bus.
class Session {
public:
    explicit Session(GlobalOptions options) : options_(options) {}

    const GlobalOptions& options() const { return options_; }
    Client& client();

    // The workload `typed` names. As Podman takes any unique prefix of a
    // container ID, a prefix shorter than the 12 digits the daemon resolves
    // itself is expanded from the daemon's workload objects, saying what it
    // matched; a name resized knows always wins. Anything else is passed on
    // as typed.
    std::string workloadNamed(const std::string& typed);

private:
    GlobalOptions options_;
    std::unique_ptr<Client> client_;
};

using VerbAction = std::function<ExitStatus(Session&)>;

// How every verb's help names its workload argument: the kinds of design §1b.
inline const std::string kWorkloadHelp =
    "Workload: a container's name or ID, pod:NAME (a Podman pod), unit:NAME (a systemd unit)";

// The daemon's status of `workload`; nullopt when it does not know it,
// or no longer: a workload forgotten or gone since it was listed.
std::optional<Dictionary> findStatus(Client& client, const std::string& workload);

// Each verb adds its subcommand to `app`. When the command line names the
// verb, its callback stores in `selected` what to run once parsing is done.
void addStatusVerb(CLI::App& app, VerbAction& selected);
void addSetVerb(CLI::App& app, VerbAction& selected);
void addValidateVerb(CLI::App& app, VerbAction& selected);
void addListVerb(CLI::App& app, VerbAction& selected);
void addNodeVerb(CLI::App& app, VerbAction& selected);
void addForgetVerb(CLI::App& app, VerbAction& selected);
void addReconcileVerb(CLI::App& app, VerbAction& selected);
void addHistoryVerb(CLI::App& app, VerbAction& selected);
void addMetricsVerb(CLI::App& app, VerbAction& selected);
void addWatchVerb(CLI::App& app, VerbAction& selected);
void addReportVerb(CLI::App& app, VerbAction& selected);
void addAutoscaleVerb(CLI::App& app, VerbAction& selected);
void addTopVerb(CLI::App& app, VerbAction& selected);
void addPoolVerb(CLI::App& app, VerbAction& selected);
void addPlanVerb(CLI::App& app, VerbAction& selected);

}  // namespace resized::ctl
