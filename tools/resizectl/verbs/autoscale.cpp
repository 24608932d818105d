#include <iostream>
#include <memory>
#include <string>

#include "autoscale_options.h"
#include "autoscale_status.h"
#include "dbus_codec/autoscale_policy.h"
#include "verbs/verb.h"

namespace resized::ctl {

namespace {

struct SetRequest {
    std::string workload;
    AutoscaleArguments arguments;
};

// A workload without a policy has nothing to show: exit status 5, as the
// daemon answers `autoscale remove` for it (NoSuchWorkload, "no autoscale
// policy"), so that `autoscale status web && ...` reads as it should.
ExitStatus showPolicy(Session& session, const std::string& typed)
{
    const std::string workload = session.workloadNamed(typed);
    const Dictionary status =
        session.client().call([&](ManagerProxy& manager) { return manager.GetResourceStatus(workload); });
    const auto policy = find<Dictionary>(status, "Autoscale");
    if (!policy || policy->empty())
        throw CommandError(ExitStatus::NoSuchWorkload, workload + " has no autoscale policy");
    const auto autoscaleStatus = lookup<Dictionary>(status, "AutoscaleStatus");
    const std::string name = lookup<std::string>(status, "Workload", workload);

    if (session.options().json) {
        printJson({{"Workload", name}, {"Autoscale", toJson(*policy)}, {"AutoscaleStatus", toJson(autoscaleStatus)}});
        return ExitStatus::Success;
    }
    core::autoscale::Policy decoded;
    try {
        decoded = dbus_codec::decodeAutoscalePolicy(*policy);
    } catch (const dbus_codec::InvalidDictionary& error) {
        throw CommandError(ExitStatus::Failure,
                           "cannot read the autoscale policy of " + name + " the daemon sent: " + error.what());
    }
    std::cout << formatAutoscaleBlock(name, decoded, autoscaleStatus, Clock::now());
    return ExitStatus::Success;
}

// The policy in force for `workload`, to change; the defaults when it has
// none or resized does not know it yet.
core::autoscale::Policy policyInForce(Client& client, const std::string& workload)
{
    const auto status = findStatus(client, workload);
    const auto policy = status ? find<Dictionary>(*status, "Autoscale") : std::nullopt;
    if (!policy || policy->empty())
        return {};
    try {
        return dbus_codec::decodeAutoscalePolicy(*policy);
    } catch (const dbus_codec::InvalidDictionary& error) {
        throw CommandError(ExitStatus::Failure, "cannot read the autoscale policy in force for " + workload +
                                                    " to change it (" + error.what() + "); --reset replaces it");
    }
}

void throwIfUnsound(const core::autoscale::Policy& policy)
{
    if (const auto invalidity = core::autoscale::invalidity(policy))
        throw CommandError(ExitStatus::InvalidArgument,
                           "invalid autoscale policy: " + invalidityInOptionTerms(*invalidity));
}

// The options change the policy in force, or replace it with --reset.
// Checked here as the daemon checks it, so that an unsound policy is an
// invalid argument (exit status 4) in the options' words. Before the policy
// in force is asked for, what the options give is judged over the defaults
// (with a stand-in target where they name none), so that a wrong value
// needs no bus. Prints the policy then in force, as `autoscale status` does.
ExitStatus setPolicy(Session& session, const SetRequest& request)
{
    const AutoscaleArguments& arguments = request.arguments;
    if (!arguments.reset) {
        core::autoscale::Policy standIn;
        if (!arguments.givesTarget())
            standIn.cpu = core::autoscale::Target{100, 0, core::autoscale::kUnbounded};
        throwIfUnsound(arguments.policy(standIn));
    }

    const std::string workload = session.workloadNamed(request.workload);
    const auto base = arguments.reset ? core::autoscale::Policy{} : policyInForce(session.client(), workload);
    if (const auto missing = arguments.boundWithoutTarget(base))
        throw CommandError(ExitStatus::Usage, *missing);
    const core::autoscale::Policy policy = arguments.policy(base);
    throwIfUnsound(policy);
    session.client().call([&](ManagerProxy& manager) {
        manager.SetAutoscalePolicy(workload, dbus_codec::encodeAutoscalePolicy(policy));
    });
    return showPolicy(session, workload);
}

void addSetSubcommand(CLI::App& autoscale, VerbAction& selected)
{
    auto* command = autoscale.add_subcommand(
        "set", "Scale a workload's limits to keep its usage at a target; change the policy it has");
    auto request = std::make_shared<SetRequest>();
    command->add_option("workload", request->workload, kWorkloadHelp)->required();
    addAutoscaleOptions(*command, request->arguments);
    command->footer(
        "Every interval resized samples the workload's usage and recommends the limit at which\n"
        "it would be the target utilization: ceil(usage / target), left alone while within the\n"
        "tolerance. It then moves the limit as a HorizontalPodAutoscaler moves a replica count:\n"
        "up only as far as the lowest recommendation of the scale-up window, down only as far\n"
        "as the highest of the scale-down window, by no more per period than the rate policies\n"
        "allow, and within the bounds. Each change is admitted like `resizectl set`. An OOM kill\n"
        "raises the memory limit at once.\n"
        "Options left out keep what the policy in force has (the defaults for a new policy);\n"
        "--reset starts from the defaults instead. Prints the policy then in force.\n"
        "Examples:\n"
        "  resizectl autoscale set web --cpu-target 70 --cpu-min 500m --cpu-max 4\n"
        "  resizectl autoscale set db --memory-target 80% --memory-max 8g \\\n"
        "      --scale-down-window 10min --scale-down-policy percent:10:1min\n"
        "  resizectl autoscale set web --mode recommend\n"
        "  resizectl autoscale set web --reset --cpu-target 60");
    command->callback([&selected, request] {
        selected = [request](Session& session) { return setPolicy(session, *request); };
    });
}

void addStatusSubcommand(CLI::App& autoscale, VerbAction& selected)
{
    auto* command = autoscale.add_subcommand(
        "status", "Show a workload's autoscale policy, its usage, the recommendations and the last change");
    auto workload = std::make_shared<std::string>();
    command->add_option("workload", *workload, kWorkloadHelp)->required();
    command->footer("Exit status 0 with a policy; 5 when the workload has none, as for `autoscale remove`,\n"
                    "or resized does not know it. With --json, one object: Workload, and the status's\n"
                    "Autoscale and AutoscaleStatus dictionaries with their D-Bus key names.\n"
                    "Examples:\n"
                    "  resizectl autoscale status web\n"
                    "  resizectl autoscale status --json web");
    command->callback([&selected, workload] {
        selected = [workload](Session& session) { return showPolicy(session, *workload); };
    });
}

void addRemoveSubcommand(CLI::App& autoscale, VerbAction& selected)
{
    auto* command = autoscale.add_subcommand(
        "remove", "Stop autoscaling a workload; its limits stay as they are");
    auto workload = std::make_shared<std::string>();
    command->add_option("workload", *workload, kWorkloadHelp)->required();
    command->footer("A workload without a policy is exit status 5, as an unknown one.\n"
                    "Example:\n"
                    "  resizectl autoscale remove web");
    command->callback([&selected, workload] {
        selected = [workload](Session& session) {
            const std::string name = session.workloadNamed(*workload);
            session.client().call([&](ManagerProxy& manager) { manager.RemoveAutoscalePolicy(name); });
            return ExitStatus::Success;
        };
    });
}

}  // namespace

void addAutoscaleVerb(CLI::App& app, VerbAction& selected)
{
    auto* command = app.add_subcommand(
        "autoscale", "Scale a workload's limits with its usage, as a HorizontalPodAutoscaler on the node");
    command->require_subcommand(1);
    command->footer("Commands: set, status, remove. See resizectl autoscale COMMAND --help.\n"
                    "Example:\n"
                    "  resizectl autoscale set web --cpu-target 70 --cpu-max 4");
    addSetSubcommand(*command, selected);
    addStatusSubcommand(*command, selected);
    addRemoveSubcommand(*command, selected);
}

}  // namespace resized::ctl
