// resized-oci-hook: an OCI createRuntime hook that has resized write a
// container's desired limits into its cgroup before the container runs its
// first instruction. It must never keep a container from starting: whatever
// goes wrong, it logs and exits 0, at the latest after its time limit.

#include <signal.h>
#include <sys/time.h>
#include <systemd/sd-journal.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <iterator>
#include <optional>
#include <sdbus-c++/sdbus-c++.h>
#include <string>

#include "build_config.h"
#include "container_name.h"
#include "oci_state.h"

namespace {

using namespace std::chrono_literals;
using resized::hook::OciState;

constexpr auto kDefaultTimeout = 200ms;
constexpr const char* kTimeoutVariable = "RESIZED_HOOK_TIMEOUT_MSEC";

// To the journal with the container as a field; to standard error where
// there is no journal (the runtime keeps a hook's output in its log).
// sd_journal_send() reports success when there is no journal at all.
void log(int priority, const std::string& containerId, const std::string& message)
{
    const bool journal = access("/run/systemd/journal/socket", W_OK) == 0;
    if (!journal || sd_journal_send("MESSAGE=%s", message.c_str(), "PRIORITY=%i", priority, "CONTAINER_ID=%s",
                                    containerId.c_str(), "SYSLOG_IDENTIFIER=resized-oci-hook", nullptr) < 0)
        std::cerr << "resized-oci-hook: " << message << '\n';
}

// The last resort when even connecting to the bus hangs: only
// async-signal-safe calls here.
void giveUp(int)
{
    constexpr char message[] = "resized-oci-hook: resized did not answer in time; the container starts without "
                               "waiting (the limits follow from its start event)\n";
    [[maybe_unused]] const auto written = write(STDERR_FILENO, message, sizeof message - 1);
    _exit(EXIT_SUCCESS);
}

std::chrono::milliseconds timeoutFromEnvironment()
{
    const char* value = std::getenv(kTimeoutVariable);
    if (!value || !*value)
        return kDefaultTimeout;
    char* end = nullptr;
    const long milliseconds = std::strtol(value, &end, 10);
    if (*end != '\0' || milliseconds <= 0 || milliseconds > 60'000)
        return kDefaultTimeout;
    return std::chrono::milliseconds(milliseconds);
}

void armWatchdog(std::chrono::milliseconds after)
{
    struct sigaction action {};
    action.sa_handler = giveUp;
    sigaction(SIGALRM, &action, nullptr);
    itimerval timer{};
    timer.it_value.tv_sec = after.count() / 1000;
    timer.it_value.tv_usec = (after.count() % 1000) * 1000;
    setitimer(ITIMER_REAL, &timer, nullptr);
}

// Asks resized; answers the workload whose limits are now in place ("" when
// resized manages no such container).
std::string prepare(const OciState& state, const std::string& name, std::chrono::milliseconds timeout)
{
    auto connection = sdbus::createSystemBusConnection();
    auto proxy = sdbus::createProxy(*connection, "io.resized1", "/io/resized1");
    std::string workload;
    proxy->callMethod("PrepareContainer")
        .onInterface("io.resized1.Manager")
        .withTimeout(timeout)
        .withArguments(state.id, name, static_cast<uint32_t>(state.pid))
        .storeResultsTo(workload);
    return workload;
}

int run(std::chrono::milliseconds timeout)
{
    const auto started = std::chrono::steady_clock::now();
    const std::string input((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
    OciState state;
    try {
        state = resized::hook::parseOciState(input);
    } catch (const resized::hook::InvalidState& error) {
        log(LOG_WARNING, "", std::string("cannot read the OCI state on standard input: ") + error.what());
        return EXIT_SUCCESS;
    }
    const std::string name = resized::hook::containerNameFromAncestors(getppid()).value_or("");
    try {
        const auto left = timeout - std::chrono::duration_cast<std::chrono::milliseconds>(
                                        std::chrono::steady_clock::now() - started);
        const std::string workload = prepare(state, name, std::max(left, 1ms));
        if (!workload.empty())
            log(LOG_DEBUG, state.id, "resized wrote the limits of " + workload + " before the container runs");
    } catch (const sdbus::Error& error) {
        log(LOG_WARNING, state.id,
            "resized could not write the limits of container " + (name.empty() ? state.id : name) +
                " before it runs (" + error.getName() + ": " + error.getMessage() +
                "); they follow from its start event");
    }
    return EXIT_SUCCESS;
}

}  // namespace

int main(int argc, char** argv)
{
    CLI::App app{
        "Has resized write a container's desired CPU and memory limits into its cgroup before the container "
        "runs its first instruction. An OCI hook for the createRuntime stage: the runtime passes the container's "
        "state on standard input; installed for Podman as resized.json in /usr/share/containers/oci/hooks.d/.\n\n"
        "It never keeps a container from starting: when resized is not running, refuses, or does not answer "
        "within the time limit, it logs to the journal (or standard error) and exits 0, and resized applies "
        "the limits when it sees the container's start event.\n\n"
        "Environment (a hook gets only what its JSON file's \"env\" sets):\n"
        "  RESIZED_HOOK_TIMEOUT_MSEC  time limit in milliseconds (default 200)\n"
        "  DBUS_SYSTEM_BUS_ADDRESS    the system bus (default: the standard socket)",
        "resized-oci-hook"};
    app.set_version_flag("--version", std::string(RESIZED_VERSION));
    CLI11_PARSE(app, argc, argv);

    const auto timeout = timeoutFromEnvironment();
    // Past the call's own timeout: a bus that accepts and never answers
    // the authentication would outlast it.
    armWatchdog(timeout + 50ms);
    return run(timeout);
}
