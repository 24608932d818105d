#include "support/daemon_process.h"

#include "support/bus_names.h"
#include "support/wait.h"

#include <csignal>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <stdexcept>

namespace resized::integration
{

namespace
{

constexpr auto busName = "io.resized1";
constexpr std::size_t logTailLength = 4000;

std::filesystem::path binaryFromEnvironment()
{
    const char* binary = std::getenv("RESIZED_BINARY");
    if (binary == nullptr || *binary == '\0')
    {
        throw std::runtime_error("RESIZED_BINARY is not set: run the test "
                                 "through meson test");
    }
    return binary;
}

std::vector<std::string> commandLine(const DaemonOptions& options)
{
    std::vector<std::string> argv{
        options.binary.string(),
        "--state-dir",     options.stateDirectory.string(),
        "--config",        options.configFile.string(),
        "--podman-socket", options.podmanSocket.string(),
        "--cgroup-root",   options.cgroupRoot.string(),
        "--log-level",     options.logLevel,
    };
    argv.insert(argv.end(), options.extraArguments.begin(),
                options.extraArguments.end());
    return argv;
}

std::vector<std::string> environmentOf(const DaemonOptions& options)
{
    std::vector<std::string> environment = options.extraEnvironment;
    if (options.checkInvariants)
    {
        environment.push_back("RESIZED_CHECK_INVARIANTS=abort");
    }
    return environment;
}

std::vector<std::string> prepared(const DaemonOptions& options)
{
    std::filesystem::create_directories(options.stateDirectory);
    std::filesystem::create_directories(options.logFile.parent_path());
    return commandLine(options);
}

} // namespace

DaemonOptions DaemonOptions::forEnvironment(const TestEnvironment& environment)
{
    const auto directory = environment.directory / "daemon";
    DaemonOptions options;
    options.binary = binaryFromEnvironment();
    options.stateDirectory = directory / "state";
    options.configFile = directory / "resized.conf";
    options.podmanSocket = environment.podmanSocket;
    options.logFile = directory / "resized.log";
    return options;
}

DaemonProcess::DaemonProcess(DaemonOptions options,
                             std::chrono::milliseconds startTimeout) :
    options_(std::move(options)),
    process_(prepared(options_), options_.logFile, environmentOf(options_))
{
    const bool started = waitUntil(
        [&] {
            return !process_.running() ||
                   busNameOwnerPid(busName) == process_.pid();
        },
        startTimeout);
    if (!started || !process_.running())
    {
        throw std::runtime_error(std::string("resized did not take ") +
                                 busName + "; its log ends with:\n" + log());
    }
}

int DaemonProcess::stop()
{
    return process_.signalAndWait(SIGTERM);
}

int DaemonProcess::kill9()
{
    return process_.signalAndWait(SIGKILL);
}

std::string DaemonProcess::wholeLog() const
{
    std::ifstream stream(options_.logFile);
    return {std::istreambuf_iterator<char>(stream), {}};
}

std::string DaemonProcess::log() const
{
    std::string text = wholeLog();
    if (text.size() > logTailLength)
    {
        text.erase(0, text.size() - logTailLength);
    }
    return text;
}

bool DaemonProcess::waitForStartEvent(const std::string& container, std::chrono::milliseconds timeout) const
{
    const std::string line = container + ": container event start";
    return waitUntil([&] { return wholeLog().find(line) != std::string::npos; }, timeout);
}

} // namespace resized::integration
