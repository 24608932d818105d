#pragma once

#include "support/child_process.h"
#include "support/test_environment.h"

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

namespace resized::integration
{

struct DaemonOptions
{
    std::filesystem::path binary;
    std::filesystem::path stateDirectory;
    // Need not exist: the daemon starts with built-in defaults then.
    std::filesystem::path configFile;
    std::filesystem::path podmanSocket;
    std::filesystem::path cgroupRoot = "/sys/fs/cgroup";
    std::string logLevel = "debug";
    // Standard output and error of every start are appended here.
    std::filesystem::path logFile;
    std::vector<std::string> extraArguments;
    // "NAME=value" entries, e.g. RESIZED_FAILPOINT=...
    std::vector<std::string> extraEnvironment;
    // RESIZED_CHECK_INVARIANTS=abort: the daemon stops at the commit that
    // broke one of the rules that hold at every instant (design.md §1c),
    // with the rule in its log. On for tests; a benchmark times the daemon
    // as it runs in production, without the check.
    bool checkInvariants = true;

    // The binary from RESIZED_BINARY (set by meson); state, configuration
    // and log under <RESIZED_TEST_DIR>/daemon, so that a restarted daemon
    // finds the state of the previous one.
    static DaemonOptions forEnvironment(const TestEnvironment& environment);
};

// A running resized. Starting waits until it owns io.resized1 on the bus;
// destroying kills it if the test did not stop it.
class DaemonProcess
{
  public:
    static constexpr auto defaultStartTimeout = std::chrono::seconds(30);

    // Throws std::runtime_error with the end of the log when the daemon
    // exits or does not take its bus name within startTimeout.
    explicit DaemonProcess(DaemonOptions options,
                           std::chrono::milliseconds startTimeout =
                               defaultStartTimeout);

    // SIGTERM and wait: the orderly shutdown. Returns the exit status
    // (128 + signal when a signal ended it).
    int stop();
    // SIGKILL and wait: a crash.
    int kill9();
    bool running() { return process_.running(); }
    pid_t pid() const { return process_.pid(); }

    const DaemonOptions& options() const { return options_; }
    // The end of the log, for a failure's message; all of it, to search.
    std::string log() const;
    std::string wholeLog() const;
    // Waits until the daemon's debug log says it handled the start event of
    // `container`; false on timeout. Podman's events come hundreds of
    // milliseconds after the command that caused them, and nothing on the
    // bus tells: the listing after the stream's first event counts a new
    // container's allocation too.
    bool waitForStartEvent(const std::string& container,
                           std::chrono::milliseconds timeout = std::chrono::seconds(30)) const;

  private:
    DaemonOptions options_;
    ChildProcess process_;
};

} // namespace resized::integration
