#include "container_name.h"

#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string_view>

namespace resized::hook {

namespace {

// runc → conmon; a wrapper or two in between are tolerated.
constexpr int kAncestorsSearched = 4;

std::vector<std::string> argumentsOf(pid_t process)
{
    std::ifstream file("/proc/" + std::to_string(process) + "/cmdline", std::ios::binary);
    const std::string content((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    std::vector<std::string> arguments;
    std::string_view rest = content;
    while (!rest.empty()) {
        const auto end = rest.find('\0');
        arguments.emplace_back(rest.substr(0, end));
        if (end == std::string_view::npos)
            break;
        rest.remove_prefix(end + 1);
    }
    return arguments;
}

std::optional<pid_t> parentOf(pid_t process)
{
    std::ifstream file("/proc/" + std::to_string(process) + "/status");
    std::string line;
    while (std::getline(file, line)) {
        if (line.starts_with("PPid:")) {
            std::istringstream value(line.substr(5));
            pid_t parent = 0;
            if (value >> parent && parent > 0)
                return parent;
            return std::nullopt;
        }
    }
    return std::nullopt;
}

}  // namespace

std::optional<std::string> nameFromConmonArguments(const std::vector<std::string>& arguments)
{
    if (arguments.empty() || std::filesystem::path(arguments.front()).filename() != "conmon")
        return std::nullopt;
    for (size_t index = 1; index < arguments.size(); ++index) {
        const std::string& argument = arguments[index];
        // Their values are other programs' arguments, which may be "-n".
        if (argument == "--exit-command-arg" || argument == "--runtime-arg") {
            ++index;
            continue;
        }
        if ((argument == "-n" || argument == "--name") && index + 1 < arguments.size())
            return arguments[index + 1];
        if (argument.starts_with("--name="))
            return argument.substr(std::string_view("--name=").size());
    }
    return std::nullopt;
}

std::optional<std::string> containerNameFromAncestors(pid_t process)
{
    std::optional<pid_t> ancestor = process;
    for (int step = 0; step < kAncestorsSearched && ancestor; ++step) {
        if (auto name = nameFromConmonArguments(argumentsOf(*ancestor)))
            return name;
        ancestor = parentOf(*ancestor);
    }
    return std::nullopt;
}

}  // namespace resized::hook
