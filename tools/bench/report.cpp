#include "report.h"

#include <cstdio>
#include <optional>
#include <string>

namespace resized::bench {

namespace {

constexpr double kMebibyte = 1024.0 * 1024.0;
constexpr std::size_t kGoalWorkloads = 1000;

std::string fixed(double value, int decimals = 2)
{
    char text[64];
    std::snprintf(text, sizeof text, "%.*f", decimals, value);
    return text;
}

std::string mebibytes(std::uint64_t bytes)
{
    return fixed(static_cast<double>(bytes) / kMebibyte, 1);
}

const char* verdict(bool met)
{
    return met ? "met" : "**missed**";
}

void printMachine(std::ostream& out, const Machine& machine)
{
    out << "## Machine\n\n"
        << "| | |\n|---|---|\n"
        << "| CPUs | " << machine.cpus << " × " << machine.cpuModel << " |\n"
        << "| memory | " << machine.memory << " |\n"
        << "| kernel | " << machine.kernel << " |\n"
        << "| Podman | " << machine.podman << " (runc, cgroupfs manager, file events logger) |\n"
        << "| cgroups | " << machine.cgroups << " |\n"
        << "| load average (1/5/15 min) | " << machine.loadAtStart << " at the start, " << machine.loadAtEnd
        << " at the end |\n\n";
}

void printUpdateLatency(std::ostream& out, const UpdateLatencyResult& result)
{
    const auto& methods = result.methods;
    out << "## 1. Changing the CPU limit of a running container\n\n"
        << "Five running containers, each call alternating its container between 100 and 150 "
           "millicores; every change is checked in the cgroup file after the call, outside the "
           "timed part. Timed from the steady state: until Podman's event stream has shown that it "
           "stays open (its first event, or 2 s) resized looks every workload up in Podman; the "
           "warm-up's untimed calls cover that.\n\n"
        << "| method | calls | p50 ms | p99 ms | mean ms | max ms | p50 vs resized | p99 vs resized |\n"
        << "|---|--:|--:|--:|--:|--:|--:|--:|\n";
    const LatencySummary& resized = methods.front().latency;
    for (const auto& [method, latency] : methods) {
        out << "| " << method << " | " << latency.count << " | " << fixed(latency.p50Ms, 3) << " | "
            << fixed(latency.p99Ms, 3) << " | " << fixed(latency.meanMs, 3) << " | " << fixed(latency.maxMs, 3)
            << " | " << fixed(latency.p50Ms / resized.p50Ms, 1) << "× | "
            << fixed(latency.p99Ms / resized.p99Ms, 1) << "× |\n";
    }
    const LatencySummary& floor = result.busRoundTrip;
    out << "\nThe floor, `org.freedesktop.DBus.Peer.Ping` to resized on the same connection (answered by "
           "sd-bus, none of resized's code): p50 "
        << fixed(floor.p50Ms, 3) << " ms, p99 " << fixed(floor.p99Ms, 3) << " ms (" << floor.count
        << " calls); `UpdateResources` takes " << fixed(resized.p50Ms / floor.p50Ms, 1) << "× its p50.\n\n"
        << "resized's own CPU time per call: " << fixed(toMilliseconds(result.resizedCpuPerCall), 3)
        << " ms. A running container resized manages is not looked up in Podman while its events flow; "
           "the lookup it would otherwise make, Podman's REST inspect (`GET …/containers/{name}/json`), "
           "takes p50 "
        << fixed(result.podmanInspect.p50Ms, 3) << " ms, p99 " << fixed(result.podmanInspect.p99Ms, 3)
        << " ms (" << result.podmanInspect.count << " calls).\n\n";
}

// Next to one UpdateResources of section 1, for what the plan's own work
// (the second change, its record, the signal) adds.
// A row of a table of latencies: calls, p50, p99, mean and max in ms.
void latencyRow(std::ostream& out, const char* what, const LatencySummary& latency)
{
    out << "| " << what << " | " << latency.count << " | " << fixed(latency.p50Ms, 3) << " | "
        << fixed(latency.p99Ms, 3) << " | " << fixed(latency.meanMs, 3) << " | " << fixed(latency.maxMs, 3) << " |\n";
}

void printPlanLatency(std::ostream& out, const LatencySummary& plan, const LatencySummary& update)
{
    out << "## 1b. A plan of two changes\n\n"
        << "Each plan moves 250 millicores between two of those containers (bench-00 400 → 150 and "
           "bench-01 100 → 350, then back), timed from `SubmitPlan` until its `PlanFinished`: validation, "
           "admission, the decrease, the increase and the commit. Both cgroup files are checked after "
           "every plan, outside the timed part.\n\n"
        << "| | calls | p50 ms | p99 ms | mean ms | max ms |\n|---|--:|--:|--:|--:|--:|\n";
    latencyRow(out, "`SubmitPlan`, two changes, until `PlanFinished`", plan);
    latencyRow(out, "`UpdateResources`, one change (section 1)", update);
    out << '\n';
}

void printSliceLatency(std::ostream& out, const SliceLatencyResult& slice, const LatencySummary& update)
{
    out << "## 1c. An exclusive CPU slice\n\n"
        << "A daemon with `[CpuManager] Policy=static` gives bench-00 a slice of one CPU "
           "(`ExclusiveCpus` 1: its cpuset is the slice, its quota removed) and gives it back (`ExclusiveCpus` "
           "0), each timed to the answer. Then, from the answer, until the cgroups of the "
        << slice.otherContainers
        << " other containers, none of them managed, are all off the slice (or back on every CPU), polled "
           "every millisecond: the pass that lists them and writes their cpusets. Run last, on its own "
           "daemon.\n\n"
        << "| | calls | p50 ms | p99 ms | mean ms | max ms |\n|---|--:|--:|--:|--:|--:|\n";
    latencyRow(out, "`UpdateResources` `ExclusiveCpus` 1", slice.grant);
    latencyRow(out, "then every other container off the slice", slice.othersOff);
    latencyRow(out, "`UpdateResources` `ExclusiveCpus` 0", slice.giveBack);
    latencyRow(out, "then every other container on every CPU", slice.othersBack);
    latencyRow(out, "`UpdateResources`, one CPU limit (section 1)", update);
    out << '\n';
}

void printThroughput(std::ostream& out, const std::vector<ThroughputRun>& runs)
{
    out << "## 2. UpdateResources throughput\n\n"
        << "Each client is a thread with its own bus connection and its own container (client k "
           "changes bench-k), calling back to back for 3 s.\n\n"
        << "| clients | calls | seconds | calls/s | p50 ms | p99 ms |\n"
        << "|--:|--:|--:|--:|--:|--:|\n";
    for (const auto& run : runs) {
        out << "| " << run.clients << " | " << run.calls << " | " << fixed(run.seconds) << " | "
            << fixed(run.callsPerSecond(), 0) << " | " << fixed(run.latency.p50Ms, 3) << " | "
            << fixed(run.latency.p99Ms, 3) << " |\n";
    }
    out << '\n';
}

void printReapply(std::ostream& out, const ReapplyResult& reapply)
{
    out << "## 3. Re-applying the desired limit after `podman restart -t 0`\n\n"
        << reapply.fromStartEvent.count
        << " restarts; the cgroup file is polled every 1 ms until it shows the desired quota "
           "again.\n\n"
        << "| from | p50 ms | mean ms | p99 ms | max ms |\n|---|--:|--:|--:|--:|\n";
    const auto row = [&](const char* from, const LatencySummary& latency) {
        out << "| " << from << " | " << fixed(latency.p50Ms, 1) << " | " << fixed(latency.meanMs, 1) << " | "
            << fixed(latency.p99Ms, 1) << " | " << fixed(latency.maxMs, 1) << " |\n";
    };
    row("the `start` event (its `timeNano`)", reapply.fromStartEvent);
    row("`podman restart` returning (negative: already back)", reapply.fromRestartReturned);
    row("the first poll that saw the create-time limit", reapply.staleLimitVisible);
    out << '\n';
}

void printFirstInstruction(std::ostream& out, const FirstInstructionResult& first)
{
    out << "## 3b. What a restarted container's first instruction sees\n\n"
        << "A container created with 500 millicores and resized to 100 prints its own CFS quota as its first "
           "instruction at every start; "
        << first.restarts << " `podman restart -t 0` each, without and with `resized-oci-hook` "
        << "(`podman --hooks-dir`).\n\n"
        << "| | starts that ran their first instruction under the desired limit | restart p50 ms | "
           "restart p99 ms |\n|---|--:|--:|--:|\n";
    const auto row = [&](const char* what, std::size_t desiredFirst, const LatencySummary& restart) {
        out << "| " << what << " | " << desiredFirst << " of " << first.restarts << " | "
            << fixed(restart.p50Ms, 1) << " | " << fixed(restart.p99Ms, 1) << " |\n";
    };
    row("start event only", first.desiredFirstWithoutHook, first.restartWithoutHook);
    row("OCI hook", first.desiredFirstWithHook, first.restartWithHook);
    out << '\n';
}

void printScale(std::ostream& out, const std::vector<ScaleRow>& rows)
{
    out << "## 4–5. Sync pass, memory and start-up against the number of workloads\n\n"
        << "*running*: real containers; *absent*: workloads whose container does not exist "
           "(state records written while the daemon was stopped). Sync pass: one `Reconcile(\"\")`, "
           "the daemon's CPU time (schedstat, all threads) around it. Start-up: spawn → "
           "`io.resized1` owned (`NameOwnerChanged`), 3 starts.\n\n"
        << "| workloads | running | absent | pass CPU ms p50 | pass CPU ms max | pass wall ms p50 | "
           "RSS MiB | of it anonymous MiB | start-up ms p50 | start-up ms max |\n"
        << "|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n";
    for (const auto& row : rows) {
        out << "| " << row.workloads() << " | " << row.runningWorkloads << " | " << row.absentWorkloads << " | "
            << fixed(row.passCpu.p50Ms) << " | " << fixed(row.passCpu.maxMs) << " | "
            << fixed(row.passWall.p50Ms, 1) << " | " << mebibytes(row.residentBytes) << " | "
            << mebibytes(row.residentAnonymousBytes) << " | " << fixed(row.startup.p50Ms, 1) << " | " << fixed(row.startup.maxMs, 1) << " |\n";
    }
    out << '\n';
}

void printIdle(std::ostream& out, const IdleResult& idle)
{
    out << "## 6. Idle\n\n"
        << "| workloads | seconds | CPU ms | context switches |\n|--:|--:|--:|--:|\n"
        << "| " << idle.workloads << " | " << fixed(idle.seconds, 1) << " | "
        << fixed(toMilliseconds(idle.cpuTime), 3) << " | " << idle.contextSwitches << " |\n\n";
}

// The HPA's reaction, as the seed design measures it: kubelet, metrics-server
// and the HPA each poll on a period of their own.
constexpr const char* kHpaReaction = "15–85 s";
constexpr double kSampledGoalWorkloads = 1000;

// Percent of one CPU that sampling `workloads` once a second would take.
double samplingShare(const SamplingCost& cost, double workloads)
{
    return toMilliseconds(cost.perSample()) * workloads / 1000.0 * 100.0;
}

// The measured figure where the bench ran that many workloads.
std::string samplingShareText(const SamplingCost& cost)
{
    const bool measured = static_cast<double>(cost.workloads) >= kSampledGoalWorkloads;
    return fixed(samplingShare(cost, kSampledGoalWorkloads), 2) + (measured ? " % (measured)" : " % (extrapolated)");
}

void printSampling(std::ostream& out, const SamplingCost& cost)
{
    out << "| " << cost.workloads << " | " << fixed(cost.seconds, 1) << " | " << fixed(toMilliseconds(cost.cpuTime), 1)
        << " | " << fixed(toMilliseconds(cost.perSample()) * 1000, 1) << " | " << samplingShareText(cost) << " |\n";
}

void printAutoscale(std::ostream& out, const AutoscaleResult& autoscale)
{
    out << "## 7. Autoscaler\n\n"
        << "Reaction: a busy loop starts in a container held at 100m with a policy (target 50 %, "
           "interval 1 s); until its CPU quota rises. The HPA takes "
        << kHpaReaction << ".\n\n"
        << "| reactions | p50 ms | p99 ms | max ms |\n|--:|--:|--:|--:|\n"
        << "| " << autoscale.reaction.count << " | " << fixed(autoscale.reaction.p50Ms, 0) << " | "
        << fixed(autoscale.reaction.p99Ms, 0) << " | " << fixed(autoscale.reaction.maxMs, 0) << " |\n\n"
        << "Sampling: every container with a policy (recommend mode, interval 1 s), the daemon's CPU less "
           "its idle CPU. RESIZED_BENCH_RUNNING_CONTAINERS=1000 measures it with a thousand.\n\n"
        << "| workloads | seconds | CPU ms | per sample µs | at 1,000 workloads, % of one CPU |\n"
        << "|--:|--:|--:|--:|--:|\n";
    printSampling(out, autoscale.sampling);
    if (autoscale.samplingAtScale)
        printSampling(out, *autoscale.samplingAtScale);
    out << '\n';
}

const ScaleRow* rowWith(const std::vector<ScaleRow>& rows, std::size_t running, std::size_t workloads)
{
    for (const auto& row : rows)
        if (row.runningWorkloads == running && row.workloads() == workloads)
            return &row;
    return nullptr;
}

// The pass cost of 1,000 running workloads, from what one more running
// workload adds between the two smaller all-running sizes: for a run
// without RESIZED_BENCH_RUNNING_CONTAINERS=1000.
std::optional<double> estimatedRunningPassMs(const std::vector<ScaleRow>& rows)
{
    const ScaleRow* few = nullptr;
    const ScaleRow* more = nullptr;
    for (const auto& row : rows) {
        if (row.absentWorkloads != 0 || row.runningWorkloads == 0)
            continue;
        if (!few || row.runningWorkloads < few->runningWorkloads)
            few = &row;
        if (!more || row.runningWorkloads > more->runningWorkloads)
            more = &row;
    }
    if (!few || few == more)
        return std::nullopt;
    const double perWorkload = (more->passCpu.p50Ms - few->passCpu.p50Ms) /
                               static_cast<double>(more->runningWorkloads - few->runningWorkloads);
    // Lost in the noise between the two rows: a line through them says
    // nothing about a thousand.
    if (perWorkload <= 0)
        return std::nullopt;
    return more->passCpu.p50Ms + perWorkload * static_cast<double>(kGoalWorkloads - more->runningWorkloads);
}

class GoalTable {
public:
    explicit GoalTable(std::ostream& out) : out_(out)
    {
        out_ << "## Goals\n\n| goal | this run | |\n|---|---|---|\n";
    }
    ~GoalTable() { out_ << '\n'; }

    void row(const std::string& goal, const std::string& measured, bool met)
    {
        out_ << "| " << goal << " | " << measured << " | " << verdict(met) << " |\n";
    }
    // Neither met nor missed: this run cannot tell.
    void unknown(const std::string& goal, const std::string& why)
    {
        out_ << "| " << goal << " | " << why << " | not measured |\n";
    }

private:
    std::ostream& out_;
};

void printGoals(std::ostream& out, const Results& results)
{
    GoalTable goals(out);
    const auto& methods = results.updateLatency.methods;
    const LatencySummary& resized = methods.at(0).latency;
    goals.row("`UpdateResources` p50 ≤ 0.5 ms", fixed(resized.p50Ms, 3) + " ms", resized.p50Ms <= 0.5);
    goals.row("`UpdateResources` p99 ≤ 2 ms", fixed(resized.p99Ms, 3) + " ms", resized.p99Ms <= 2.0);
    const double versusFloor = resized.p50Ms / results.updateLatency.busRoundTrip.p50Ms;
    goals.row("≤ 3× a no-op round trip (`Peer.Ping`, p50)", fixed(versusFloor, 1) + "×", versusFloor <= 3.0);
    const double versusCli = methods.at(1).latency.p50Ms / resized.p50Ms;
    goals.row("≥ 40× faster than `podman update` (p50)", fixed(versusCli, 1) + "×", versusCli >= 40.0);
    const double versusRest = methods.at(2).latency.p50Ms / resized.p50Ms;
    goals.row("≥ 10× faster than Podman's REST update (p50)", fixed(versusRest, 1) + "×", versusRest >= 10.0);
    const double cpuPerCall = toMilliseconds(results.updateLatency.resizedCpuPerCall);
    goals.row("the daemon's CPU per call ≤ 0.15 ms", fixed(cpuPerCall, 3) + " ms", cpuPerCall <= 0.15);
    for (const auto& run : results.throughput)
        if (run.clients == 4)
            goals.row("≥ 2,000 calls/s with 4 clients", fixed(run.callsPerSecond(), 0) + " calls/s",
                      run.callsPerSecond() >= 2000.0);

    if (const ScaleRow* running = rowWith(results.scale, kGoalWorkloads, kGoalWorkloads))
        goals.row("sync pass over 1,000 running containers ≤ 20 ms CPU",
                  fixed(running->passCpu.p50Ms) + " ms (1,000 real containers)", running->passCpu.p50Ms <= 20.0);
    else if (const auto estimate = estimatedRunningPassMs(results.scale))
        goals.row("sync pass over 1,000 running containers ≤ 20 ms CPU",
                  "≈ " + fixed(*estimate, 0) + " ms (estimated: run with RESIZED_BENCH_RUNNING_CONTAINERS=1000)",
                  *estimate <= 20.0);
    else
        goals.unknown("sync pass over 1,000 running containers ≤ 20 ms CPU",
                      "the cost per running container is lost in the noise at 10 and 30: run with "
                      "RESIZED_BENCH_RUNNING_CONTAINERS=1000");
    const ScaleRow* thousand = rowWith(results.scale, kGoalWorkloads, kGoalWorkloads);
    if (!thousand)
        for (const auto& row : results.scale)
            if (row.workloads() == kGoalWorkloads)
                thousand = &row;
    if (thousand) {
        const std::string where = " (" + std::to_string(thousand->runningWorkloads) + " running)";
        goals.row("start-up with 1,000 workloads ≤ 100 ms", fixed(thousand->startup.p50Ms, 1) + " ms" + where,
                  thousand->startup.p50Ms <= 100.0);
        goals.row("RSS ≤ 16 MiB at 1,000 workloads", mebibytes(thousand->residentBytes) + " MiB" + where,
                  static_cast<double>(thousand->residentBytes) <= 16 * kMebibyte);
        goals.row("anonymous memory ≤ 4 MiB at 1,000 workloads",
                  mebibytes(thousand->residentAnonymousBytes) + " MiB" + where,
                  static_cast<double>(thousand->residentAnonymousBytes) <= 4 * kMebibyte);
    }
    const double wakeupsPerSecond = static_cast<double>(results.idle.contextSwitches) / results.idle.seconds;
    goals.row("idle: no wake-ups", fixed(wakeupsPerSecond, 1) + " context switches/s", results.idle.contextSwitches == 0);

    const double reactionS = results.autoscale.reaction.p50Ms / 1000;
    goals.row("autoscaler reacts to a load within about a second (the HPA: 15–85 s)",
              fixed(reactionS, 2) + " s p50", reactionS <= 2.0);
    const SamplingCost& sampling = results.autoscale.samplingAtScale.value_or(results.autoscale.sampling);
    goals.row("sampling 1,000 workloads once a second < 2 % of one CPU", "≈ " + samplingShareText(sampling),
              samplingShare(sampling, kSampledGoalWorkloads) < 2.0);

    const FirstInstructionResult& first = results.firstInstruction;
    goals.row("with the OCI hook, every restart's first instruction under the desired limit",
              std::to_string(first.desiredFirstWithHook) + " of " + std::to_string(first.restarts),
              first.restarts > 0 && first.desiredFirstWithHook == first.restarts);
    const LatencySummary& reapplied = results.reapply.fromStartEvent;
    goals.row("without the hook, limits back p99 ≤ 50 ms after the `start` event", fixed(reapplied.p99Ms, 1) + " ms",
              reapplied.p99Ms <= 50.0);
}

}  // namespace

void printReport(std::ostream& out, const Machine& machine, const Results& results)
{
    printMachine(out, machine);
    printUpdateLatency(out, results.updateLatency);
    printPlanLatency(out, results.planLatency, results.updateLatency.methods.front().latency);
    printSliceLatency(out, results.sliceLatency, results.updateLatency.methods.front().latency);
    printThroughput(out, results.throughput);
    printReapply(out, results.reapply);
    printFirstInstruction(out, results.firstInstruction);
    printScale(out, results.scale);
    printIdle(out, results.idle);
    printAutoscale(out, results.autoscale);
    printGoals(out, results);
}

}  // namespace resized::bench
