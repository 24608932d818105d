#pragma once

#include <spawn.h>
#include <sys/types.h>

#include <filesystem>
#include <string>
#include <vector>

namespace resized::integration
{

// What a spawned child does with its file descriptors before exec.
class SpawnFileActions
{
  public:
    SpawnFileActions();
    SpawnFileActions(const SpawnFileActions&) = delete;
    SpawnFileActions& operator=(const SpawnFileActions&) = delete;
    ~SpawnFileActions();

    void duplicate(int fd, int target);
    void close(int fd);
    void openForAppend(const std::filesystem::path& file, int target);
    void openNull(int target);

    const posix_spawn_file_actions_t* get() const { return &actions_; }

  private:
    posix_spawn_file_actions_t actions_;
};

// Starts argv[0] (looked up in PATH) with this process's environment plus
// extraEnvironment ("NAME=value" entries, replacing variables of the same
// name). The child stays in the caller's process group, so that whoever
// kills the test's group (meson test on a timeout) kills the child too.
pid_t spawnProcess(const std::vector<std::string>& argv,
                   const SpawnFileActions& fileActions,
                   const std::vector<std::string>& extraEnvironment = {});

// The exit code of a waitpid() status, or 128 + the signal that ended it, as
// a shell reports it.
int exitStatusOf(int waitStatus);

// Waits for pid to end and returns its exit status (see exitStatusOf()).
int waitForExit(pid_t pid);

} // namespace resized::integration
