#include <chrono>
#include <iostream>
#include <string>
#include <string_view>

#include "arguments.h"
#include "parsed_option.h"
#include "quantity_format.h"
#include "resource_options.h"
#include "verbs/verb.h"

namespace resized::ctl {

namespace {

// sd-bus's own default; an update that waits for memory reclaim may take
// the reclaim timeout on top of it.
constexpr std::chrono::seconds kMethodCallTimeout{25};

struct UpdateRequest {
    std::string workload;
    ResourceArguments resourceArguments;
    // Set once the command line is read, from resourceArguments.
    ResourceRequest resources;
    UpdateOptions options;
};

// Checks the ranges the daemon would refuse, before any connection, so that
// the message names the flag and the units the user typed (exit status 4
// all the same), and says what was rounded.
void checkRequest(const ResourceRequest& request)
{
    if (const auto violation = request.rangeViolation())
        throw CommandError(ExitStatus::InvalidArgument, *violation);
    for (const auto& note : request.notes)
        printNote(note);
}

// The kernel's word for a cgroup v1 memory limit below what the container
// holds, which it refuses even after reclaim, --force or not; the daemon
// passes it on in a MemoryInUse (or ApplyFailed) message.
constexpr std::string_view kKernelBusy = "Device or resource busy";

// The daemon's refusal about one of the resources, led by the user's words,
// with what the kernel meant when it is the kernel that refused, and how to
// wait for a disruption budget.
template <typename Call>
auto callAbout(const ResourceRequest& request, Call&& call)
{
    try {
        return call();
    } catch (const CommandError& error) {
        std::string message = request.attributed(error.what());
        if (message.find(kKernelBusy) != std::string::npos)
            message += " (the kernel would not lower the cgroup v1 memory limit below the memory the container "
                       "holds: it reclaimed what it could and the rest is in use, which --force cannot change; "
                       "free memory inside the container, or ask for a higher limit)";
        // Waiting lifts this refusal; the daemon says until when, if time
        // alone frees the budget.
        if (error.status() == ExitStatus::BudgetExhausted)
            message += " (--defer queues the change until the budgets allow it)";
        throw CommandError(error.status(), message);
    }
}

ExitStatus update(Session& session, const UpdateRequest& request)
{
    checkRequest(request.resources);
    Client& client = session.client();
    const auto reclaimTimeout = request.options.reclaimTimeout.value_or(std::chrono::microseconds(0));
    client.setMethodCallTimeout(kMethodCallTimeout + reclaimTimeout);
    const std::string workload = session.workloadNamed(request.workload);
    const Dictionary status = callAbout(request.resources, [&] {
        return client.call([&](ManagerProxy& manager) {
            return manager.UpdateResources(workload, toDictionary(request.resources.resources),
                                           toDictionary(request.options));
        });
    });
    printStatus(status, session.options());
    return ExitStatus::Success;
}

ExitStatus validate(Session& session, const UpdateRequest& request)
{
    checkRequest(request.resources);
    const std::string workload = session.workloadNamed(request.workload);
    const auto [allowed, reason] = callAbout(request.resources, [&] {
        return session.client().call([&](ManagerProxy& manager) {
            return manager.ValidateResourceUpdate(workload, toDictionary(request.resources.resources));
        });
    });
    if (session.options().json)
        printJson({{"allowed", allowed}, {"reason", reason}});
    else if (allowed)
        std::cout << "allowed\n";
    else
        std::cout << "refused: " << request.resources.attributed(readableSizes(reason)) << '\n';
    return allowed ? ExitStatus::Success : ExitStatus::Refused;
}

void addWorkloadArgument(CLI::App& command, UpdateRequest& request)
{
    command.add_option("workload", request.workload, kWorkloadHelp)->required();
}

}  // namespace

void addSetVerb(CLI::App& app, VerbAction& selected)
{
    auto* command = app.add_subcommand("set", "Change the limits of a running workload in place");
    auto request = std::make_shared<UpdateRequest>();
    addWorkloadArgument(*command, *request);
    addResourceOptions(*command, request->resourceArguments);

    auto* options = command->add_option_group("Update options");
    options->add_flag("--dry-run", request->options.dryRun, "Decide and report, change nothing");
    options->add_flag("--force", request->options.force,
                      "Allow a memory limit below the current usage; on pod:NAME, lower its members over the new "
                      "limit with it, as one plan");
    options->add_flag("--defer", request->options.defer,
                      "If capacity is short now, queue the change until it frees instead of failing");
    addParsedOption(*options, "--reclaim-timeout", request->options.reclaimTimeout, parseTimespan, "a time span",
                    "How long a memory shrink may wait for reclaim: 5s, 500ms, 1min")
        ->type_name("TIME");
    // Given at all, even as '', the option is sent: '' leaves any pool.
    options
        ->add_option_function<std::string>(
            "--pool", [request](const std::string& pool) { request->options.pool = pool; },
            "Join the pool POOL (see resizectl pool), durably: this change and later ones are admitted "
            "against its caps too. '' leaves any pool. Wins over the container's io.resized1.pool label")
        ->type_name("POOL");

    command->footer("All named resources change together or not at all. Prints the resulting status.\n"
                    "Examples:\n"
                    "  resizectl set web --cpus 1.5 --memory 1g\n"
                    "  resizectl set web CPUQuota=150% MemoryMax=1G\n"
                    "  resizectl set web --memory 256Mi --reclaim-timeout 10s\n"
                    "  resizectl set job1 --cpus 1 --pool batch\n"
                    "  resizectl set job1 --cpus 2 --pool ''\n"
                    "  resizectl set web --cpus max --dry-run");
    command->callback([&selected, request] {
        request->resources = request->resourceArguments.resolve();
        selected = [request](Session& session) { return update(session, *request); };
    });
}

void addValidateVerb(CLI::App& app, VerbAction& selected)
{
    auto* command = app.add_subcommand("validate", "Ask whether a change would be admitted, without making it");
    auto request = std::make_shared<UpdateRequest>();
    addWorkloadArgument(*command, *request);
    addResourceOptions(*command, request->resourceArguments);
    command->footer("Prints \"allowed\" (exit status 0) or \"refused: <reason>\" (exit status 3).\n"
                    "Examples:\n"
                    "  resizectl validate web --cpus 4 --memory 8g\n"
                    "  resizectl validate web CPUQuota=400% MemoryMax=8G");
    command->callback([&selected, request] {
        request->resources = request->resourceArguments.resolve();
        selected = [request](Session& session) { return validate(session, *request); };
    });
}

}  // namespace resized::ctl
