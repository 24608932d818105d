#include "machine.h"

#include <linux/magic.h>
#include <sys/statfs.h>
#include <sys/utsname.h>

#include <cstdio>
#include <fstream>
#include <thread>

#include "support/command.h"

namespace resized::bench {

namespace {

// The value after "key<spaces>:" on the first line that starts with key.
std::string procField(const char* file, const std::string& key)
{
    std::ifstream stream(file);
    std::string line;
    while (std::getline(stream, line)) {
        if (!line.starts_with(key))
            continue;
        const auto colon = line.find(':');
        const auto value = line.find_first_not_of(" \t", colon + 1);
        return value == std::string::npos ? "" : line.substr(value);
    }
    return "unknown";
}

bool isFilesystem(const char* path, decltype(statfs::f_type) type)
{
    struct statfs info {};
    return statfs(path, &info) == 0 && info.f_type == type;
}

std::string cgroupMode()
{
    if (isFilesystem("/sys/fs/cgroup", CGROUP2_SUPER_MAGIC))
        return "v2 (unified)";
    if (isFilesystem("/sys/fs/cgroup/unified", CGROUP2_SUPER_MAGIC))
        return "v1 controllers, hybrid (cgroup2 at /sys/fs/cgroup/unified without controllers)";
    return "v1 (legacy)";
}

std::string totalMemory()
{
    const double kibibytes = std::stod(procField("/proc/meminfo", "MemTotal"));
    char text[32];
    std::snprintf(text, sizeof text, "%.1f GiB", kibibytes / (1024.0 * 1024.0));
    return text;
}

std::string firstLine(std::string text)
{
    return text.substr(0, text.find('\n'));
}

}  // namespace

std::string loadAverage()
{
    std::ifstream stream("/proc/loadavg");
    std::string one, five, fifteen;
    stream >> one >> five >> fifteen;
    return one + " " + five + " " + fifteen;
}

Machine describeMachine()
{
    utsname system{};
    uname(&system);
    return {
        .cpus = std::thread::hardware_concurrency(),
        .cpuModel = procField("/proc/cpuinfo", "model name"),
        .memory = totalMemory(),
        .kernel = std::string(system.sysname) + " " + system.release + " " + system.machine,
        .podman = firstLine(integration::runCommand({"podman", "--version"}).standardOutput),
        .cgroups = cgroupMode(),
        .loadAtStart = loadAverage(),
        .loadAtEnd = {},
    };
}

}  // namespace resized::bench
