#include "cgroup/process_cgroup.h"

#include <cerrno>

#include "cgroup/cgroup_files.h"
#include "cgroup/limits_backend.h"

namespace resized::cgroup {

namespace {

bool listsController(std::string_view controllers, std::string_view wanted)
{
    while (!controllers.empty()) {
        const auto comma = controllers.find(',');
        if (controllers.substr(0, comma) == wanted)
            return true;
        if (comma == std::string_view::npos)
            break;
        controllers.remove_prefix(comma + 1);
    }
    return false;
}

}  // namespace

std::optional<std::string> cgroupFromProcFile(std::string_view procCgroup)
{
    std::optional<std::string> unified;
    while (!procCgroup.empty()) {
        const auto newline = procCgroup.find('\n');
        const std::string_view line = procCgroup.substr(0, newline);
        procCgroup.remove_prefix(newline == std::string_view::npos ? procCgroup.size() : newline + 1);
        // hierarchy-ID:controller-list:cgroup-path; the path may hold colons.
        const auto first = line.find(':');
        const auto second = first == std::string_view::npos ? first : line.find(':', first + 1);
        if (second == std::string_view::npos)
            continue;
        const std::string_view controllers = line.substr(first + 1, second - first - 1);
        const std::string_view path = line.substr(second + 1);
        if (path.empty() || path.front() != '/')
            continue;
        if (listsController(controllers, "memory"))
            return std::string(path);
        if (line.substr(0, first) == "0" && controllers.empty())
            unified = std::string(path);
    }
    return unified;
}

std::string cgroupOfProcess(pid_t pid)
{
    const std::string file = "/proc/" + std::to_string(pid) + "/cgroup";
    std::string content;
    try {
        content = readFile(file);
    } catch (const CgroupError& error) {
        throw CgroupError("process " + std::to_string(pid) + " is gone: " + error.what(), ESRCH);
    }
    auto cgroup = cgroupFromProcFile(content);
    if (!cgroup)
        throw CgroupError("process " + std::to_string(pid) + " is in no memory or unified cgroup", ENOENT);
    return *cgroup;
}

}  // namespace resized::cgroup
