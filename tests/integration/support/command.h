#pragma once

#include <string>
#include <vector>

namespace resized::integration
{

struct CommandResult
{
    // The exit code, or 128 + the signal that ended the command.
    int exitStatus = 0;
    std::string standardOutput;
    std::string standardError;

    bool succeeded() const { return exitStatus == 0; }
};

// Runs argv[0] (looked up in PATH) with /dev/null as standard input, captures
// its standard output and error and waits until it ends.
CommandResult runCommand(const std::vector<std::string>& argv,
                         const std::vector<std::string>& extraEnvironment = {});

// Like runCommand(), but throws std::runtime_error with the command's error
// output when it does not succeed; returns its standard output.
std::string runCommandOrThrow(const std::vector<std::string>& argv);

} // namespace resized::integration
