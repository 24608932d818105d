#include "v1_test_cgroup.h"

#include <linux/magic.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <fstream>
#include <sstream>

#include "cgroup/cgroup_files.h"
#include "cgroup/limits_backend.h"

namespace resized::cgroup::test {

namespace {

constexpr std::string_view kControllers[] = {"cpu", "cpuacct", "memory", "cpuset"};

std::filesystem::path directory(std::string_view controller, const std::string& cgroup)
{
    return kCgroupRoot / controller / std::filesystem::path(cgroup).relative_path();
}

std::string trimmed(std::string text)
{
    while (!text.empty() && (text.back() == '\n' || text.back() == ' '))
        text.pop_back();
    return text;
}

// Moves every process of `cgroup` to the root of the hierarchy, so that it
// can be removed even when a test left one behind.
void evacuate(std::string_view controller, const std::string& cgroup)
{
    std::ifstream procs(directory(controller, cgroup) / "cgroup.procs");
    for (std::string pid; procs >> pid;) {
        try {
            writeFile(kCgroupRoot / controller / "cgroup.procs", pid);
        } catch (const CgroupError& error) {
            ADD_FAILURE() << "moving " << pid << " out of " << cgroup << ": " << error.what();
        }
    }
}

void removeCgroup(std::string_view controller, const std::string& cgroup)
{
    const auto path = directory(controller, cgroup);
    if (!std::filesystem::exists(path))
        return;
    evacuate(controller, cgroup);
    if (rmdir(path.c_str()) < 0)
        ADD_FAILURE() << "rmdir " << path << ": " << std::strerror(errno);
}

}  // namespace

std::string missingCgroupV1()
{
    for (const auto controller : kControllers) {
        struct statfs filesystem {};
        const auto path = kCgroupRoot / controller;
        if (statfs(path.c_str(), &filesystem) < 0 || filesystem.f_type != CGROUP_SUPER_MAGIC)
            return path.string() + " is not a cgroup v1 hierarchy";
    }
    if (!std::filesystem::exists(kCgroupRoot / "memory" / "memory.limit_in_bytes"))
        return (kCgroupRoot / "memory").string() + " is not a v1 memory hierarchy";
    return {};
}

V1TestCgroup::V1TestCgroup(const std::string& parentCpus)
{
    static std::atomic<unsigned> counter;
    parent_ = "/resized-test-" + std::to_string(getpid()) + "-" + std::to_string(counter++);
    child_ = parent_ + "/child";
    try {
        for (const auto& cgroup : {parent_, child_})
            for (const auto controller : kControllers)
                std::filesystem::create_directory(directory(controller, cgroup));
        // A new v1 cpuset starts empty and holds no task until given CPUs and
        // memory nodes.
        const auto rootCpuset = kCgroupRoot / "cpuset";
        const auto cpus = parentCpus.empty() ? readFile(rootCpuset / "cpuset.cpus") : parentCpus;
        const auto mems = readFile(rootCpuset / "cpuset.mems");
        for (const auto& cgroup : {parent_, child_}) {
            writeFile(directory("cpuset", cgroup) / "cpuset.cpus", cpus);
            writeFile(directory("cpuset", cgroup) / "cpuset.mems", mems);
        }
    } catch (...) {
        remove();
        throw;
    }
}

V1TestCgroup::~V1TestCgroup()
{
    remove();
}

void V1TestCgroup::remove() const
{
    for (const auto& cgroup : {child_, parent_})
        for (const auto controller : kControllers)
            removeCgroup(controller, cgroup);
}

std::filesystem::path V1TestCgroup::file(std::string_view controller, std::string_view name) const
{
    return directory(controller, child_) / name;
}

std::string V1TestCgroup::read(std::string_view controller, std::string_view name) const
{
    return trimmed(readFile(file(controller, name)));
}

void V1TestCgroup::write(std::string_view controller, std::string_view name,
                         const std::string& value) const
{
    writeFile(file(controller, name), value);
}

void V1TestCgroup::join(pid_t pid) const
{
    for (const auto controller : kControllers)
        write(controller, "cgroup.procs", std::to_string(pid));
}

}  // namespace resized::cgroup::test
