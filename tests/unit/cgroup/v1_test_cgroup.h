#pragma once

#include <sys/types.h>

#include <filesystem>
#include <string>
#include <string_view>

namespace resized::cgroup::test {

inline const std::filesystem::path kCgroupRoot = "/sys/fs/cgroup";

// Empty when this host has the cgroup v1 cpu, memory and cpuset hierarchies
// these tests need, otherwise the reason why not.
std::string missingCgroupV1();

// A cgroup "/resized-test-<pid>-<n>" with a child "/…/child" in the v1 cpu,
// memory and cpuset hierarchies, removed (with its processes moved out
// first) when it goes.
class V1TestCgroup {
public:
    // `parentCpus` restricts the parent's cpuset; empty copies the root's.
    explicit V1TestCgroup(const std::string& parentCpus = {});
    V1TestCgroup(const V1TestCgroup&) = delete;
    V1TestCgroup& operator=(const V1TestCgroup&) = delete;
    ~V1TestCgroup();

    const std::string& parent() const { return parent_; }
    const std::string& child() const { return child_; }

    // A file of the child in a controller's hierarchy.
    std::filesystem::path file(std::string_view controller, std::string_view name) const;
    std::string read(std::string_view controller, std::string_view name) const;
    void write(std::string_view controller, std::string_view name, const std::string& value) const;

    // Moves `pid` into the child of every hierarchy.
    void join(pid_t pid) const;

private:
    void remove() const;

    std::string parent_;
    std::string child_;
};

}  // namespace resized::cgroup::test
