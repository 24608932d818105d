#include <string>

#include "verbs/verb.h"

namespace resized::ctl {

void addForgetVerb(CLI::App& app, VerbAction& selected)
{
    auto* command = app.add_subcommand(
        "forget", "Drop a workload's desired state and release its allocation; its limits stay as they are");
    auto workload = std::make_shared<std::string>();
    command->add_option("workload", *workload, kWorkloadHelp)->required();
    command->callback([&selected, workload] {
        selected = [workload](Session& session) {
            const std::string name = session.workloadNamed(*workload);
            session.client().call([&](ManagerProxy& manager) { manager.Forget(name); });
            return ExitStatus::Success;
        };
    });
}

void addReconcileVerb(CLI::App& app, VerbAction& selected)
{
    auto* command = app.add_subcommand(
        "reconcile", "Re-read the actual limits now and repair any drift from the desired state");
    auto workload = std::make_shared<std::string>();
    command->add_option("workload", *workload, kWorkloadHelp + "; without one, every workload");
    command->callback([&selected, workload] {
        selected = [workload](Session& session) {
            const std::string name = session.workloadNamed(*workload);
            session.client().call([&](ManagerProxy& manager) { manager.Reconcile(name); });
            return ExitStatus::Success;
        };
    });
}

}  // namespace resized::ctl
