// resized-bench: measures resized against `podman update` and Podman's REST
// API on this machine, and the daemon's own costs at scale. It needs the
// private bus and Podman of tests/integration/with-testenv.sh and the daemon
// binary in RESIZED_BINARY; tools/bench/run.sh provides both. The report goes
// to standard output as Markdown, progress to standard error.

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <stdexcept>
#include <string>

#include "emergency_stop.h"
#include "machine.h"
#include "phases.h"
#include "report.h"
#include "support/test_environment.h"

namespace {

using namespace resized::bench;

// Containers 0–15 take part in the throughput runs and 16 in the restarts;
// every one of them is managed by then.
constexpr std::size_t kManagedBeforeIdle = 17;

class Progress {
public:
    void operator()(const char* step) const
    {
        const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - started_;
        std::cerr << "resized-bench: [" << static_cast<int>(elapsed.count()) << " s] " << step << std::endl;
    }

private:
    std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
};

// RESIZED_BENCH_RUNNING_CONTAINERS: how many real containers the last scale
// row runs (0 or unset: no such row).
std::size_t manyRunningContainers()
{
    const char* value = std::getenv("RESIZED_BENCH_RUNNING_CONTAINERS");
    if (!value || !*value)
        return 0;
    char* end = nullptr;
    const unsigned long count = std::strtoul(value, &end, 10);
    if (*end != '\0')
        throw std::runtime_error("RESIZED_BENCH_RUNNING_CONTAINERS is not a number: " + std::string(value));
    return count;
}

int run(resized::integration::TestEnvironment environment)
{
    const Progress progress;
    Machine machine = describeMachine();
    progress("creating containers");
    Testbed testbed(std::move(environment));
    testbed.startDaemon(testbed.stateDirectory("main"));

    Results results;
    progress("1/5 UpdateResources vs podman update vs REST");
    results.updateLatency = measureUpdateLatency(testbed);
    progress("1b/5 a plan of two changes, SubmitPlan to PlanFinished");
    results.planLatency = measurePlanLatency(testbed);
    progress("2/5 throughput with 1, 4, 16 clients");
    results.throughput = measureThroughput(testbed);
    progress("3/5 re-apply after restarts");
    results.reapply = measureReapply(testbed);
    progress("3b/5 the first instruction after restarts, without and with the OCI hook");
    results.firstInstruction = measureFirstInstruction(testbed);
    progress("4/5 idle");
    results.idle = measureIdle(testbed, kManagedBeforeIdle);
    progress("4b/5 the autoscaler: reaction to a load, and the cost of sampling");
    results.autoscale = measureAutoscale(testbed, results.idle);
    progress("5/5 sync pass, memory and start-up at scale");
    results.scale = measureScale(testbed);
    if (const std::size_t many = manyRunningContainers()) {
        progress(("5/5 the same with " + std::to_string(many) + " real running containers (minutes)").c_str());
        auto measured = measureManyRunning(testbed, many);
        results.scale.push_back(std::move(measured.scale));
        results.autoscale.samplingAtScale = measured.sampling;
    }
    progress("1c/5 an exclusive CPU slice given and given back (last: it runs a daemon of its own)");
    results.sliceLatency = measureSliceLatency(testbed);
    progress("done; removing containers");

    machine.loadAtEnd = loadAverage();
    if (quickRun())
        std::cout << "> A quick run (RESIZED_BENCH_QUICK=1): every phase with small counts; the figures are not "
                     "measurements.\n\n";
    printReport(std::cout, machine, results);
    return EXIT_SUCCESS;
}

}  // namespace

int main()
{
    auto environment = resized::integration::TestEnvironment::fromEnv();
    if (!environment) {
        std::cerr << "resized-bench: run it through tools/bench/run.sh (it needs with-testenv.sh)\n";
        return 2;
    }
    installEmergencyStop();
    try {
        return run(std::move(*environment));
    } catch (const std::exception& error) {
        std::cerr << "resized-bench: " << error.what() << '\n';
        return EXIT_FAILURE;
    }
}
