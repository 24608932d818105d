#include "support/child_process.h"

#include <sys/wait.h>

#include <csignal>

namespace resized::integration
{

namespace
{

pid_t spawnLoggingTo(const std::vector<std::string>& argv,
                     const std::filesystem::path& logFile,
                     const std::vector<std::string>& extraEnvironment)
{
    SpawnFileActions actions;
    actions.openNull(STDIN_FILENO);
    actions.openForAppend(logFile, STDOUT_FILENO);
    actions.duplicate(STDOUT_FILENO, STDERR_FILENO);
    return spawnProcess(argv, actions, extraEnvironment);
}

} // namespace

ChildProcess::ChildProcess(const std::vector<std::string>& argv,
                           const std::filesystem::path& logFile,
                           const std::vector<std::string>& extraEnvironment) :
    pid_(spawnLoggingTo(argv, logFile, extraEnvironment))
{}

ChildProcess::~ChildProcess()
{
    if (!exitStatus_)
    {
        kill(pid_, SIGKILL);
        waitpid(pid_, nullptr, 0);
    }
}

bool ChildProcess::running()
{
    if (exitStatus_)
    {
        return false;
    }
    int status = 0;
    if (waitpid(pid_, &status, WNOHANG) == pid_)
    {
        exitStatus_ = exitStatusOf(status);
    }
    return !exitStatus_;
}

int ChildProcess::signalAndWait(int signal)
{
    if (!exitStatus_)
    {
        kill(pid_, signal);
        exitStatus_ = waitForExit(pid_);
    }
    return *exitStatus_;
}

} // namespace resized::integration
