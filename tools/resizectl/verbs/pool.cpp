#include <iostream>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "arguments.h"
#include "budget_argument.h"
#include "core/quantity.h"
#include "parsed_option.h"
#include "pool_format.h"
#include "verbs/verb.h"

namespace resized::ctl {

namespace {

using PoolEntry = sdbus::Struct<std::string, sdbus::ObjectPath>;

// A budget that cannot be read is an invalid argument (exit status 4), as
// one the daemon refuses is, rather than a usage error.
Dictionary readBudget(const std::string& text)
{
    try {
        return parseBudgetArgument(text);
    } catch (const InvalidBudgetArgument& error) {
        throw CommandError(ExitStatus::InvalidArgument, "--budget: '" + text + "' is not a budget: " + error.what());
    }
}

struct SetRequest {
    std::string name;
    PoolChanges changes;
    // As written, read when the command runs (see readBudget).
    std::vector<std::string> budgets;
    bool noBudgets = false;

    // SetPool's spec. Throws CommandError(InvalidArgument).
    Dictionary spec() const
    {
        PoolChanges spec = changes;
        if (noBudgets || !budgets.empty())
            spec.budgets.emplace();
        for (const auto& budget : budgets)
            spec.budgets->push_back(readBudget(budget));
        return toDictionary(spec);
    }
};

std::vector<PoolEntry> listPoolEntries(Client& client)
{
    return client.call([](ManagerProxy& manager) { return manager.ListPools(); });
}

// nullopt for a pool removed since it was listed.
std::optional<ListedPool> fetchPool(Client& client, const PoolEntry& entry)
{
    auto properties = client.findPoolProperties(entry.get<1>());
    if (!properties)
        return std::nullopt;
    return ListedPool{std::string(entry.get<1>()), std::move(*properties)};
}

ExitStatus listPools(Session& session)
{
    Client& client = session.client();
    std::vector<ListedPool> pools;
    for (const auto& entry : listPoolEntries(client))
        if (auto pool = fetchPool(client, entry))
            pools.push_back(std::move(*pool));
    printObjects(pools, makePoolTable(pools), session.options(), "pool");
    return ExitStatus::Success;
}

std::set<std::string> managedWorkloads(Client& client)
{
    std::set<std::string> names;
    for (const auto& workload : client.call([](ManagerProxy& manager) { return manager.ListWorkloads(); }))
        names.insert(workload.get<0>());
    return names;
}

// An unknown pool is exit status 14, as the daemon answers `pool remove`
// for it, so that `pool status batch && ...` reads as it should.
ExitStatus showPool(Session& session, const std::string& name)
{
    Client& client = session.client();
    std::optional<ListedPool> pool;
    for (const auto& entry : listPoolEntries(client))
        if (entry.get<0>() == name)
            pool = fetchPool(client, entry);
    if (!pool)
        throw CommandError(ExitStatus::NoSuchPool, "no pool is named \"" + name + "\"");

    if (session.options().json)
        printJson(toJson(*pool));
    else
        std::cout << formatPoolBlock(*pool, managedWorkloads(client));
    return ExitStatus::Success;
}

void addPoolNameArgument(CLI::App& command, std::string& name)
{
    command.add_option("name", name, "Pool name")->required();
}

void addSetSubcommand(CLI::App& pool, VerbAction& selected)
{
    auto* command = pool.add_subcommand("set", "Create a pool, or change its caps and disruption budgets");
    auto request = std::make_shared<SetRequest>();
    addPoolNameArgument(*command, request->name);
    auto* caps = command->add_option_group("Caps", "What to change; caps not named stay as they are");
    addParsedOption(*caps, "--cpus,--cpu", request->changes.cpuMillis, core::parseCpuMillis, "a CPU quantity",
                    "Cap on the sum of the members' CPU limits, in CPUs: 1.5, 2, or millicores: 1500m; "
                    "'max' for none")
        ->type_name("CPUS");
    addParsedOption(*caps, "-m,--memory", request->changes.memoryMax, parseMemoryArgument, "a memory quantity",
                    "Cap on the sum of the members' memory limits: 512m, 1.5g, 512Mi, bytes (k, m, g, Ki, Mi, Gi "
                    "are powers of 1024); 'max' for none")
        ->type_name("BYTES");
    auto* budgets = command->add_option_group(
        "Disruption budgets", "Given at all, they replace every budget the pool has; not given, they stay");
    auto* budget =
        budgets
            ->add_option("--budget", request->budgets,
                         "A disruption budget: VALUE[,period=TIME][,reasons=REASON[+REASON...]]"
                         "[,schedule=CRON,duration=TIME[,timezone=ZONE]]; repeat for several")
            ->type_name("SPEC")
            ->allow_extra_args(false);
    budgets->add_flag("--no-budgets", request->noBudgets, "Remove every disruption budget of the pool")
        ->excludes(budget);
    command->footer(
        "A pool caps the sum of what its members are allocated, on top of the node's capacity: a\n"
        "change that would take a member's pool over a cap is refused as insufficient resources\n"
        "(exit status 6), or with `resizectl set --defer` waits until the pool has room; a limit\n"
        "above the cap itself is infeasible (exit status 7). A new pool has no caps but those\n"
        "given. Lowering a cap below what the members hold takes nothing from them: it refuses\n"
        "their raises until the pool has room for them.\n"
        "A disruption is a change that lowers a member's CPU or memory limit. A budget allows at\n"
        "most VALUE of them (a count, or a percent of the members rounded up) over the sliding\n"
        "period (default 0: those in flight), for the reasons given (manual, autoscale, plan;\n"
        "default all), and with a schedule (five cron fields) only in the window of `duration`\n"
        "each time it fires on the clock of `timezone` (an IANA name, default UTC). TIME is a\n"
        "time span: 90s, 10min, 1h30min, 2d. A change beyond the budgets is refused (exit status\n"
        "15), or with `resizectl set --defer` waits. --budget replaces all of the pool's budgets\n"
        "with those given; --no-budgets removes them. A budget resizectl cannot read, or that\n"
        "resized refuses (a bad schedule or time zone), is an invalid argument (exit status 4).\n"
        "A workload joins a pool with `resizectl set WORKLOAD --pool POOL`, or by the label\n"
        "io.resized1.pool=POOL on its container.\n"
        "A pool's name is 1 to 63 letters, digits, '_', '.' and '-', beginning with a letter or a\n"
        "digit; another is an invalid argument (exit status 4).\n"
        "Prints the pool then, as resizectl pool status does.\n"
        "Examples:\n"
        "  resizectl pool set batch --cpus 4 --memory 8g\n"
        "  resizectl pool set batch --memory max\n"
        "  resizectl pool set batch --budget 30%,period=10min \\\n"
        "      --budget '0,reasons=autoscale,schedule=0 9 * * 1-5,duration=8h,timezone=Europe/Berlin'\n"
        "  resizectl pool set batch --no-budgets");
    command->callback([&selected, request] {
        selected = [request](Session& session) {
            const Dictionary spec = request->spec();
            session.client().call([&](ManagerProxy& manager) { manager.SetPool(request->name, spec); });
            // What is now in force, as `pool status` shows it: silence
            // left the user to guess whether anything changed.
            return showPool(session, request->name);
        };
    });
}

void addListSubcommand(CLI::App& pool, VerbAction& selected)
{
    auto* command = pool.add_subcommand("list", "List the pools with what their members are allocated");
    command->footer("Columns: NAME, CPU and MEMORY (allocated to the members / the cap, 'max' for none),\n"
                    "MEMBERS (how many workloads are in the pool).\n"
                    "With --json, one array of the pools' io.resized1.Pool properties, with their D-Bus key\n"
                    "names and exact integers, and each pool's ObjectPath.\n"
                    "Examples:\n"
                    "  resizectl pool list\n"
                    "  resizectl pool list --json");
    command->callback([&selected] { selected = listPools; });
}

void addStatusSubcommand(CLI::App& pool, VerbAction& selected)
{
    auto* command =
        pool.add_subcommand("status", "Show a pool's caps, what its members are allocated, and who they are");
    auto name = std::make_shared<std::string>();
    addPoolNameArgument(*command, *name);
    command->footer("Exit status 14 when there is no such pool. With --json, one object: the pool's\n"
                    "io.resized1.Pool properties and its ObjectPath.\n"
                    "Examples:\n"
                    "  resizectl pool status batch\n"
                    "  resizectl pool status --json batch");
    command->callback([&selected, name] {
        selected = [name](Session& session) { return showPool(session, *name); };
    });
}

void addRemoveSubcommand(CLI::App& pool, VerbAction& selected)
{
    auto* command = pool.add_subcommand("remove", "Remove a pool; its members keep their limits, uncapped by it");
    auto name = std::make_shared<std::string>();
    addPoolNameArgument(*command, *name);
    command->footer("Workloads that joined the pool with --pool leave it; a container whose\n"
                    "io.resized1.pool label names it is in no pool until one of that name is set again.\n"
                    "Exit status 14 when there is no such pool.\n"
                    "Example:\n"
                    "  resizectl pool remove batch");
    command->callback([&selected, name] {
        selected = [name](Session& session) {
            session.client().call([&](ManagerProxy& manager) { manager.RemovePool(*name); });
            return ExitStatus::Success;
        };
    });
}

}  // namespace

void addPoolVerb(CLI::App& app, VerbAction& selected)
{
    auto* command = app.add_subcommand(
        "pool", "Cap what a group of workloads may be allocated together, below the node's capacity");
    command->require_subcommand(1);
    command->footer("Commands: set, list, status, remove. See resizectl pool COMMAND --help.\n"
                    "Example:\n"
                    "  resizectl pool set batch --cpus 4 && resizectl set job1 --cpus 1 --pool batch");
    addSetSubcommand(*command, selected);
    addListSubcommand(*command, selected);
    addStatusSubcommand(*command, selected);
    addRemoveSubcommand(*command, selected);
}

}  // namespace resized::ctl
