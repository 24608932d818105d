#pragma once

#include "support/spawn.h"

#include <sys/types.h>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace resized::integration
{

// A started process that is never left behind: the destructor kills it with
// SIGKILL and reaps it if it still runs.
class ChildProcess
{
  public:
    // Starts argv with standard input from /dev/null and standard output and
    // error appended to logFile.
    ChildProcess(const std::vector<std::string>& argv,
                 const std::filesystem::path& logFile,
                 const std::vector<std::string>& extraEnvironment = {});
    ChildProcess(const ChildProcess&) = delete;
    ChildProcess& operator=(const ChildProcess&) = delete;
    ~ChildProcess();

    pid_t pid() const { return pid_; }

    // False once the process has ended (it is reaped then).
    bool running();

    // Sends signal (when still running) and waits for the end; returns the
    // exit status as spawn.h's exitStatusOf() describes it.
    int signalAndWait(int signal);

  private:
    pid_t pid_;
    std::optional<int> exitStatus_;
};

} // namespace resized::integration
