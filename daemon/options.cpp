#include "options.h"

#include <CLI/CLI.hpp>

#include "build_config.h"

namespace resized {

CommandLine parseCommandLine(int argc, char** argv)
{
    CommandLine options;
    CLI::App app{
        "resized - change the CPU and memory limits of running containers in place, and keep them.\n\n"
        "resized serves io.resized1 on the system bus (DBUS_SYSTEM_BUS_ADDRESS is honoured).\n"
        "Clients call io.resized1.Manager.UpdateResources; see resizectl(1) and resized.conf(5).",
        "resized"};
    app.set_version_flag("--version", RESIZED_VERSION);
    app.add_option("--config", options.configFile,
                   "Configuration file; drop-ins are read from FILE.d/*.conf. A missing file means "
                   "built-in defaults.")
        ->option_text("FILE")
        ->capture_default_str();
    app.add_option("--state-dir", options.stateDir,
                   "Directory of the state database state.db (default /var/lib/resized, or "
                   "[Paths] StateDirectory= of the config).")
        ->option_text("DIR");
    app.add_option("--podman-socket", options.podmanSocket,
                   "Podman API socket (default /run/podman/podman.sock).")
        ->option_text("PATH");
    app.add_option("--cgroup-root", options.cgroupRoot,
                   "Where the cgroup hierarchy is mounted (default /sys/fs/cgroup).")
        ->option_text("PATH");
    app.add_option("--log-level", options.logLevel, "Least severe messages to log.")
        ->check(CLI::IsMember({"debug", "info", "warning", "error"}))
        ->capture_default_str();
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& error) {
        std::exit(app.exit(error));
    }
    return options;
}

}  // namespace resized
