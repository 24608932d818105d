#include <condition_variable>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "arguments.h"
#include "parsed_option.h"
#include "plan_format.h"
#include "plan_request.h"
#include "verbs/verb.h"

namespace resized::ctl {

namespace {

using PlanEntry = sdbus::Struct<uint64_t, sdbus::ObjectPath>;

struct SubmitRequest {
    std::vector<std::string> words;
    std::string file;
    PlanOptions options;
    bool wait = false;
    // Set once the command line is read, from words or file.
    std::vector<PlanChange> changes;
};

// How a plan ended, as PlanFinished tells it.
struct PlanEnd {
    std::string state;
    std::string reason;
    std::string message;
};

// Collects every PlanFinished from before the plan is submitted, so that
// one finishing at once (a dry run) is not missed.
class PlanEnds {
public:
    void finished(const std::string& plan, PlanEnd end)
    {
        {
            const std::lock_guard lock(mutex_);
            ends_.emplace(plan, std::move(end));
        }
        changed_.notify_all();
    }

    PlanEnd waitFor(const std::string& plan)
    {
        std::unique_lock lock(mutex_);
        changed_.wait(lock, [&] { return ends_.contains(plan); });
        return ends_.at(plan);
    }

private:
    std::mutex mutex_;
    std::condition_variable changed_;
    std::map<std::string, PlanEnd> ends_;
};

nlohmann::json readPlanFile(const std::string& file)
{
    std::ifstream stream;
    if (file != "-") {
        stream.open(file);
        if (!stream)
            throw CLI::ValidationError("--file", file + ": cannot be read");
    }
    const auto document = nlohmann::json::parse(file == "-" ? std::cin : stream, nullptr, false);
    if (document.is_discarded())
        throw CLI::ValidationError("--file", file + ": not JSON");
    return document;
}

std::optional<ListedPlan> fetchPlan(Client& client, const sdbus::ObjectPath& path)
{
    auto properties = client.findPlanProperties(path);
    if (!properties)
        return std::nullopt;
    return ListedPlan{std::string(path), std::move(*properties)};
}

void printPlan(const ListedPlan& plan, const GlobalOptions& options)
{
    if (options.json)
        printJson(toJson(plan));
    else
        std::cout << formatPlanBlock(plan, Clock::now());
}

// The plan as it ended: its properties, or, should it be gone already, what
// PlanFinished said.
ExitStatus reportEnd(Session& session, const sdbus::ObjectPath& path, const PlanEnd& end)
{
    auto plan = fetchPlan(session.client(), path);
    if (!plan)
        plan = ListedPlan{std::string(path),
                          {{"State", sdbus::Variant(end.state)},
                           {"Reason", sdbus::Variant(end.reason)},
                           {"Message", sdbus::Variant(end.message)}}};
    printPlan(*plan, session.options());
    const ExitStatus status = exitStatusForPlan(end.state, end.reason);
    if (status != ExitStatus::Success)
        throw CommandError(status, "plan " + planIdOf(path) + " " + end.state +
                                       (end.reason.empty() ? "" : " (" + end.reason + ")") +
                                       (end.message.empty() ? "" : ": " + end.message));
    return status;
}

ExitStatus submit(Session& session, const SubmitRequest& request)
{
    Client& client = session.client();
    // A dry run ends at once; its outcome is all it has to say.
    const bool wait = request.wait || request.options.dryRun;
    PlanEnds ends;
    if (wait)
        client.startPlanFinishedDelivery([&ends](const sdbus::ObjectPath& plan, const std::string& state,
                                                 const std::string& reason, const std::string& message) {
            ends.finished(plan, {state, reason, message});
        });
    // The handler must not outlive `ends`, whatever happens.
    const std::unique_ptr<Client, void (*)(Client*)> stopping(&client, [](Client* c) { c->stop(); });
    const sdbus::ObjectPath path = client.call([&](ManagerProxy& manager) {
        return manager.SubmitPlan(request.changes, toDictionary(request.options));
    });
    if (wait) {
        const PlanEnd end = ends.waitFor(path);
        client.stop();
        return reportEnd(session, path, end);
    }
    if (session.options().json)
        printJson({{"Id", std::stoull(planIdOf(path))}, {"ObjectPath", std::string(path)}});
    else
        std::cout << planIdOf(path) << '\n';
    return ExitStatus::Success;
}

ExitStatus listPlans(Session& session)
{
    Client& client = session.client();
    std::vector<ListedPlan> plans;
    const auto entries = client.call([](ManagerProxy& manager) { return manager.ListPlans(); });
    for (const auto& entry : entries)
        if (auto plan = fetchPlan(client, entry.get<1>()))
            plans.push_back(std::move(*plan));
    printObjects(plans, makePlanTable(plans), session.options(), "plan");
    return ExitStatus::Success;
}

ExitStatus showPlan(Session& session, const sdbus::ObjectPath& path)
{
    const auto plan = fetchPlan(session.client(), path);
    if (!plan)
        throw CommandError(ExitStatus::NoSuchPlan, "no such plan: " + planIdOf(path));
    printPlan(*plan, session.options());
    return ExitStatus::Success;
}

void addPlanArgument(CLI::App& command, std::shared_ptr<sdbus::ObjectPath> path)
{
    command
        .add_option_function<std::string>(
            "plan",
            [path](const std::string& text) {
                const auto parsed = parsePlanReference(text);
                if (!parsed)
                    throw CLI::ValidationError("plan", "'" + text + "' is neither a plan id nor a plan's path");
                *path = *parsed;
            },
            "The plan's id, as plan submit printed it, or its object path")
        ->type_name("ID")
        ->required();
}

void addSubmitSubcommand(CLI::App& plan, VerbAction& selected)
{
    auto* command = plan.add_subcommand("submit", "Submit several changes to be made together, all or nothing");
    auto request = std::make_shared<SubmitRequest>();
    auto* changes =
        command->add_option("changes", request->words,
                            "The changes: each a workload, then its resources as set's assignments: "
                            "web cpus=500m memory=1g db cpus=1.5 CPUQuota=... (a word without '=' begins the "
                            "next change)")
            ->type_name("WORKLOAD KEY=VALUE...");
    command
        ->add_option("--file", request->file,
                     "Read the changes from a JSON file ('-': standard input): "
                     "{\"Changes\": [{\"Workload\": \"web\", \"Resources\": {\"CpuMillis\": 500}}]}")
        ->type_name("FILE")
        ->excludes(changes);

    auto* options = command->add_option_group("Plan options");
    options->add_flag("--dry-run", request->options.dryRun,
                      "Decide whether the plan would run, change nothing; prints how it ended");
    addParsedOption(*options, "--delay", request->options.delay, parseTimespan, "a time span",
                    "Wait this long, then validate again and run: 30s, 5min, 1h")
        ->type_name("TIME");
    options
        ->add_option_function<std::string>(
            "--reason", [request](const std::string& reason) { request->options.reason = reason; },
            "What disruption budgets count the plan's decreases as (default plan)")
        ->check(CLI::IsMember({"manual", "autoscale", "plan"}))
        ->type_name("REASON");
    options
        ->add_option_function<std::vector<std::string>>(
            "--expect",
            [request](const std::vector<std::string>& texts) {
                for (const auto& text : texts) {
                    const auto expected = parseExpectedGeneration(text);
                    if (!expected)
                        throw CLI::ValidationError("--expect", "'" + text + "' is not WORKLOAD=GENERATION");
                    if (!request->options.expectedGenerations.insert(*expected).second)
                        throw CLI::ValidationError("--expect", expected->first + ": expected twice");
                }
            },
            "Run only if WORKLOAD still has this Generation (see status --json), else the plan is "
            "rejected for churn; repeatable")
        ->type_name("WORKLOAD=GENERATION")
        ->allow_extra_args(false);
    options->add_flag("--defer", request->options.defer,
                      "If capacity is short when it is due, wait until it frees instead of failing");
    options->add_flag("--wait", request->wait,
                      "Wait until the plan has ended, print how, and exit with its status");

    command->footer(
        "The plan is admitted as a whole, net of its own decreases, validated again just before it\n"
        "runs (the workloads, the expected generations, the budgets, the capacity), runs every\n"
        "decrease before any increase, and is all or nothing. Prints the plan's id; with --wait or\n"
        "--dry-run, the plan as it ended (see resizectl plan status), with exit status 0 when it\n"
        "succeeded, 6, 7, 15 or 9 as set for a plan rejected for capacity, infeasible, for a\n"
        "budget or failed to apply, 17 when rejected because a workload changed (churn), 18 when\n"
        "cancelled.\n"
        "Resource keys: cpus, cpu, memory, memory-high, cpu-shares, cpu-weight, cpuset-cpus (read as\n"
        "set's options), and systemd's CPUQuota=, MemoryMax=, MemoryHigh=, CPUWeight=, AllowedCPUs=.\n"
        "Examples:\n"
        "  resizectl plan submit --wait web cpus=500m db cpus=1.5\n"
        "  resizectl plan submit --dry-run web memory=512Mi db memory=2g\n"
        "  resizectl plan submit --delay 1h --expect web=4 web cpus=2\n"
        "  resizectl plan submit --file plan.json");
    command->callback([&selected, request] {
        request->changes = request->file.empty() ? parsePlanChanges(request->words)
                                                 : planChangesFromJson(readPlanFile(request->file));
        selected = [request](Session& session) { return submit(session, *request); };
    });
}

void addListSubcommand(CLI::App& plan, VerbAction& selected)
{
    auto* command = plan.add_subcommand("list", "List the plans the daemon has, pending, running and finished");
    command->footer("Columns: ID, STATE (pending, running, succeeded, failed, rejected, cancelled, or\n"
                    "dry-run: a dry run that would succeed, nothing changed), REASON (churn, budget,\n"
                    "capacity, infeasible, apply; '-' for none), SUBMITTED, FINISHED ('-' while it has\n"
                    "not), CHANGES (how many). A finished plan stays at least 10 minutes.\n"
                    "With --json, one array of the plans' io.resized1.Plan properties and ObjectPath.\n"
                    "Examples:\n"
                    "  resizectl plan list\n"
                    "  resizectl plan list --json");
    command->callback([&selected] { selected = listPlans; });
}

void addStatusSubcommand(CLI::App& plan, VerbAction& selected)
{
    auto* command = plan.add_subcommand("status", "Show a plan: its state, why, and its changes");
    auto path = std::make_shared<sdbus::ObjectPath>();
    addPlanArgument(*command, path);
    command->footer("Exit status 16 when there is no such plan. With --json, one object: the plan's\n"
                    "io.resized1.Plan properties and its ObjectPath; its Changes as a plan file has them.\n"
                    "Examples:\n"
                    "  resizectl plan status 7\n"
                    "  resizectl plan status --json 7");
    command->callback([&selected, path] {
        selected = [path](Session& session) { return showPlan(session, *path); };
    });
}

void addCancelSubcommand(CLI::App& plan, VerbAction& selected)
{
    auto* command = plan.add_subcommand("cancel", "Cancel a pending plan; it ends as cancelled, nothing changed");
    auto path = std::make_shared<sdbus::ObjectPath>();
    addPlanArgument(*command, path);
    command->footer("A plan running or finished cannot be cancelled. Exit status 16 when there is no such\n"
                    "plan.\n"
                    "Example:\n"
                    "  resizectl plan cancel 7");
    command->callback([&selected, path] {
        selected = [path](Session& session) {
            session.client().cancelPlan(*path);
            return ExitStatus::Success;
        };
    });
}

}  // namespace

void addPlanVerb(CLI::App& app, VerbAction& selected)
{
    auto* command =
        app.add_subcommand("plan", "Change several workloads together, validated again just before it runs");
    command->require_subcommand(1);
    command->footer("Commands: submit, list, status, cancel. See resizectl plan COMMAND --help.\n"
                    "Example:\n"
                    "  resizectl plan submit --wait web cpus=500m db cpus=1.5");
    addSubmitSubcommand(*command, selected);
    addListSubcommand(*command, selected);
    addStatusSubcommand(*command, selected);
    addCancelSubcommand(*command, selected);
}

}  // namespace resized::ctl
