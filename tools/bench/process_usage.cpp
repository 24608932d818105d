#include "process_usage.h"

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <string_view>

namespace resized::bench {

namespace {

std::filesystem::path procDirectory(pid_t pid)
{
    return std::filesystem::path("/proc") / std::to_string(pid);
}

// The number after "key:" in a /proc status file; 0 when the key is absent.
std::uint64_t statusField(const std::filesystem::path& statusFile, std::string_view key)
{
    std::ifstream status(statusFile);
    std::string line;
    while (std::getline(status, line)) {
        if (line.starts_with(key) && line.size() > key.size() && line[key.size()] == ':')
            return std::stoull(line.substr(key.size() + 1));
    }
    return 0;
}

}  // namespace

ProcessUsage usageOf(pid_t pid)
{
    ProcessUsage usage;
    const auto tasks = procDirectory(pid) / "task";
    if (!std::filesystem::is_directory(tasks))
        throw std::runtime_error("process " + std::to_string(pid) + " is gone");
    for (const auto& task : std::filesystem::directory_iterator(tasks)) {
        // A thread may end between listing and reading: it adds nothing then.
        std::ifstream schedstat(task.path() / "schedstat");
        std::uint64_t runNanoseconds = 0;
        if (schedstat >> runNanoseconds)
            usage.cpuTime += std::chrono::nanoseconds(runNanoseconds);
        const auto status = task.path() / "status";
        usage.contextSwitches += statusField(status, "voluntary_ctxt_switches") +
                                 statusField(status, "nonvoluntary_ctxt_switches");
    }
    return usage;
}

ResidentMemory residentMemoryOf(pid_t pid)
{
    const auto status = procDirectory(pid) / "status";
    const ResidentMemory memory{.total = statusField(status, "VmRSS") * 1024,
                                .anonymous = statusField(status, "RssAnon") * 1024};
    if (memory.total == 0)
        throw std::runtime_error("no VmRSS for process " + std::to_string(pid));
    return memory;
}

}  // namespace resized::bench
