#include "support/spawn.h"

#include <fcntl.h>
#include <sys/wait.h>

#include <algorithm>
#include <cerrno>
#include <system_error>

extern char** environ;

namespace resized::integration
{

namespace
{

void throwIfFailed(int error, const char* what)
{
    if (error != 0)
    {
        throw std::system_error(error, std::generic_category(), what);
    }
}

std::string variableName(const std::string& entry)
{
    return entry.substr(0, entry.find('='));
}

std::vector<std::string>
mergedEnvironment(const std::vector<std::string>& extraEnvironment)
{
    std::vector<std::string> environment;
    for (char** entry = environ; *entry != nullptr; ++entry)
    {
        const std::string variable = *entry;
        const bool overridden = std::ranges::any_of(
            extraEnvironment, [&](const std::string& extra) {
                return variableName(extra) == variableName(variable);
            });
        if (!overridden)
        {
            environment.push_back(variable);
        }
    }
    environment.insert(environment.end(), extraEnvironment.begin(),
                       extraEnvironment.end());
    return environment;
}

std::vector<char*> nullTerminated(std::vector<std::string>& strings)
{
    std::vector<char*> pointers;
    for (auto& string : strings)
    {
        pointers.push_back(string.data());
    }
    pointers.push_back(nullptr);
    return pointers;
}

} // namespace

SpawnFileActions::SpawnFileActions()
{
    throwIfFailed(posix_spawn_file_actions_init(&actions_),
                  "posix_spawn_file_actions_init");
}

SpawnFileActions::~SpawnFileActions()
{
    posix_spawn_file_actions_destroy(&actions_);
}

void SpawnFileActions::duplicate(int fd, int target)
{
    throwIfFailed(posix_spawn_file_actions_adddup2(&actions_, fd, target),
                  "posix_spawn_file_actions_adddup2");
}

void SpawnFileActions::close(int fd)
{
    throwIfFailed(posix_spawn_file_actions_addclose(&actions_, fd),
                  "posix_spawn_file_actions_addclose");
}

void SpawnFileActions::openForAppend(const std::filesystem::path& file, int target)
{
    throwIfFailed(posix_spawn_file_actions_addopen(
                      &actions_, target, file.c_str(),
                      O_WRONLY | O_CREAT | O_APPEND, 0644),
                  "posix_spawn_file_actions_addopen");
}

void SpawnFileActions::openNull(int target)
{
    throwIfFailed(posix_spawn_file_actions_addopen(&actions_, target, "/dev/null",
                                                   O_RDWR, 0),
                  "posix_spawn_file_actions_addopen");
}

pid_t spawnProcess(const std::vector<std::string>& argv,
                   const SpawnFileActions& fileActions,
                   const std::vector<std::string>& extraEnvironment)
{
    std::vector<std::string> arguments = argv;
    std::vector<std::string> environment = mergedEnvironment(extraEnvironment);
    const auto argumentPointers = nullTerminated(arguments);
    const auto environmentPointers = nullTerminated(environment);

    pid_t pid = -1;
    throwIfFailed(posix_spawnp(&pid, argumentPointers[0], fileActions.get(),
                               nullptr, argumentPointers.data(),
                               environmentPointers.data()),
                  argv.front().c_str());
    return pid;
}

int exitStatusOf(int waitStatus)
{
    if (WIFSIGNALED(waitStatus))
    {
        return 128 + WTERMSIG(waitStatus);
    }
    return WEXITSTATUS(waitStatus);
}

int waitForExit(pid_t pid)
{
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
    {
        if (errno != EINTR)
        {
            throw std::system_error(errno, std::generic_category(), "waitpid");
        }
    }
    return exitStatusOf(status);
}

} // namespace resized::integration
