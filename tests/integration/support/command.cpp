#include "support/command.h"

#include "support/spawn.h"
#include "support/unique_fd.h"

#include <fcntl.h>
#include <poll.h>

#include <array>
#include <cerrno>
#include <stdexcept>
#include <system_error>

namespace resized::integration
{

namespace
{

struct Pipe
{
    UniqueFd readEnd;
    UniqueFd writeEnd;
};

Pipe makePipe()
{
    std::array<int, 2> fds{};
    if (pipe2(fds.data(), O_CLOEXEC) < 0)
    {
        throw std::system_error(errno, std::generic_category(), "pipe2");
    }
    return {UniqueFd(fds[0]), UniqueFd(fds[1])};
}

// Reads both pipes until both are closed; reading only one at a time could
// dead-lock with a child that fills the other one.
void readUntilClosed(UniqueFd& output, std::string& outputText, UniqueFd& error,
                     std::string& errorText)
{
    std::array<pollfd, 2> fds = {
        pollfd{output.get(), POLLIN, 0},
        pollfd{error.get(), POLLIN, 0},
    };
    std::array<std::string*, 2> texts = {&outputText, &errorText};
    int open = 2;
    while (open > 0)
    {
        if (poll(fds.data(), fds.size(), -1) < 0)
        {
            if (errno == EINTR)
            {
                continue;
            }
            throw std::system_error(errno, std::generic_category(), "poll");
        }
        for (std::size_t i = 0; i < fds.size(); ++i)
        {
            if (fds[i].fd < 0 || fds[i].revents == 0)
            {
                continue;
            }
            std::array<char, 4096> buffer{};
            const ssize_t count = read(fds[i].fd, buffer.data(), buffer.size());
            if (count > 0)
            {
                texts[i]->append(buffer.data(), static_cast<std::size_t>(count));
            }
            else if (count == 0 || errno != EINTR)
            {
                fds[i].fd = -1;
                --open;
            }
        }
    }
}

std::string describe(const std::vector<std::string>& argv)
{
    std::string text;
    for (const auto& argument : argv)
    {
        text += (text.empty() ? "" : " ") + argument;
    }
    return text;
}

} // namespace

CommandResult runCommand(const std::vector<std::string>& argv,
                         const std::vector<std::string>& extraEnvironment)
{
    Pipe output = makePipe();
    Pipe error = makePipe();
    SpawnFileActions actions;
    actions.openNull(STDIN_FILENO);
    actions.duplicate(output.writeEnd.get(), STDOUT_FILENO);
    actions.duplicate(error.writeEnd.get(), STDERR_FILENO);
    const pid_t pid = spawnProcess(argv, actions, extraEnvironment);
    output.writeEnd.reset();
    error.writeEnd.reset();

    CommandResult result;
    readUntilClosed(output.readEnd, result.standardOutput, error.readEnd,
                    result.standardError);
    result.exitStatus = waitForExit(pid);
    return result;
}

std::string runCommandOrThrow(const std::vector<std::string>& argv)
{
    CommandResult result = runCommand(argv);
    if (!result.succeeded())
    {
        throw std::runtime_error(describe(argv) + " exited with " +
                                 std::to_string(result.exitStatus) + ": " +
                                 result.standardError);
    }
    return std::move(result.standardOutput);
}

} // namespace resized::integration
