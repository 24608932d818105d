#include "unprivileged_caller.h"

#include <stdexcept>

namespace resized::integration
{

namespace
{

CommandResult runAs(const std::string& user, std::vector<std::string> argv)
{
    argv.insert(argv.begin(), {"runuser", "-u", user, "--"});
    return runCommand(argv);
}

} // namespace

CommandResult busctlAs(const std::string& user, const std::vector<std::string>& arguments)
{
    std::vector<std::string> argv{"busctl", "--system"};
    argv.insert(argv.end(), arguments.begin(), arguments.end());
    return runAs(user, argv);
}

std::string callAs(const std::string& user, const std::vector<std::string>& arguments)
{
    std::vector<std::string> argv{HOSTILE_BUS_CALLER};
    argv.insert(argv.end(), arguments.begin(), arguments.end());
    const CommandResult result = runAs(user, argv);
    if (!result.succeeded())
    {
        throw std::runtime_error("hostile_bus_caller failed: " + result.standardError);
    }
    std::string output = result.standardOutput;
    while (!output.empty() && output.back() == '\n')
    {
        output.pop_back();
    }
    return output;
}

} // namespace resized::integration
