#pragma once

#include <optional>
#include <string>

namespace resized {

// The command line of resized(8); what it names overrides the config file.
struct CommandLine {
    std::string configFile = "/etc/resized/resized.conf";
    std::optional<std::string> stateDir;
    std::optional<std::string> podmanSocket;
    std::optional<std::string> cgroupRoot;
    std::string logLevel = "info";
};

// Exits the process for --help, --version and usage errors, as CLI11 does.
CommandLine parseCommandLine(int argc, char** argv);

}  // namespace resized
