#include <string>

#include "verbs/verb.h"

namespace resized::ctl {

// The verb exists so that scripts and completion see it, but io.resized1 v1
// has no method to read history; it fails until the contract gains one.
void addHistoryVerb(CLI::App& app, VerbAction& selected)
{
    auto* command = app.add_subcommand("history", "Show the past changes of a workload (not supported yet)");
    auto workload = std::make_shared<std::string>();
    command->add_option("workload", *workload, "Container name or ID")->required();
    // The callback owns the string the option writes to, so it lives as
    // long as the command line does.
    command->callback([&selected, workload] {
        selected = [](Session&) -> ExitStatus {
            throw CommandError(ExitStatus::NotSupported,
                               "history is not supported by this daemon version "
                               "(the io.resized1 D-Bus API has no method to read it)");
        };
    });
}

}  // namespace resized::ctl
