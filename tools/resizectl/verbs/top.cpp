#include <chrono>
#include <cstdint>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <unistd.h>

#include "arguments.h"
#include "metrics_table.h"
#include "parsed_option.h"
#include "verbs/stop_signals.h"
#include "verbs/verb.h"

namespace resized::ctl {

namespace {

using namespace std::chrono_literals;

// What `watch` and top(1) write to redraw from the top left.
constexpr const char* kClearScreen = "\033[H\033[2J";

struct TopOptions {
    std::optional<std::chrono::microseconds> delay;
    uint64_t iterations = 0;  // 0: until interrupted
};

std::optional<std::chrono::microseconds> parseDelay(std::string_view text)
{
    const auto delay = parseTimespan(text);
    if (!delay || *delay <= 0us)
        return std::nullopt;
    return delay;
}

// `widths` carries the columns' widths from one refresh to the next: they
// only grow, so that columns do not jump about as values change.
void printRefresh(const std::vector<WorkloadMetrics>& workloads, const GlobalOptions& options, bool first,
                  bool redraw, std::vector<size_t>& widths)
{
    if (options.json) {
        nlohmann::json array = nlohmann::json::array();
        for (const auto& workload : workloads)
            array.push_back(toJson(workload));
        printJson(array);
    } else {
        if (redraw)
            std::cout << kClearScreen;
        else if (!first)
            std::cout << '\n';
        Table table = makeTopTable(workloads);
        table.setMinimumWidths(widths);
        widths = table.columnWidths(options.legend);
        printTable(table, options, "workload");
    }
    // A reader on a pipe sees each refresh as it happens.
    std::cout << std::flush;
}

ExitStatus top(Session& session, const TopOptions& options)
{
    // Before the bus connection exists: SIGINT ends the wait between two
    // refreshes, and one arriving during a call waits for it.
    const StopSignals stopSignals;
    const bool redraw = !session.options().json && isatty(STDOUT_FILENO) == 1;
    std::vector<size_t> widths;
    for (uint64_t refresh = 0; options.iterations == 0 || refresh < options.iterations; ++refresh) {
        if (refresh > 0 && stopSignals.waitFor(options.delay.value_or(1s)))
            break;
        const auto metrics = session.client().call([](ManagerProxy& manager) { return manager.GetMetrics(); });
        printRefresh(parseWorkloadMetrics(metrics), session.options(), refresh == 0, redraw, widths);
    }
    return ExitStatus::Success;
}

}  // namespace

void addTopVerb(CLI::App& app, VerbAction& selected)
{
    auto* command =
        app.add_subcommand("top", "Show the managed workloads' CPU and memory use against their limits, live");
    auto options = std::make_shared<TopOptions>();
    addParsedOption(*command, "-d,--delay", options->delay, parseDelay, "a positive time span",
                    "Time between refreshes, in seconds (0.5) or with a unit (500ms, 2s); default 1s")
        ->type_name("SECONDS");
    command->add_option("-n,--iterations", options->iterations, "Stop after N refreshes (default: until interrupted)")
        ->type_name("N")
        ->check(atLeastOne("to refresh until interrupted"));
    command->footer(
        "Columns: WORKLOAD, CPU (used, in CPUs), CPU LIMIT, CPU% (of the limit), MEM (working set:\n"
        "in use minus inactive file pages, as the kubelet counts it), MEM LIMIT (MemoryMax), MEM%,\n"
        "and, once some workload has an autoscale policy, CPU REC and MEM REC: the autoscaler's\n"
        "recommendations. A workload without a limit shows max and no percentage. The CPU rate is\n"
        "measured since the previous GetMetrics call by anybody, so the first refresh may show -.\n"
        "On a terminal each refresh redraws the screen; otherwise tables follow each other,\n"
        "separated by a blank line, or with --json one JSON array per line. Stops after -n\n"
        "refreshes or on SIGINT or SIGTERM, with exit status 0.\n"
        "Examples:\n"
        "  resizectl top\n"
        "  resizectl top -d 5 -n 3 --no-legend");
    command->callback([&selected, options] {
        selected = [options](Session& session) { return top(session, *options); };
    });
}

}  // namespace resized::ctl
