#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "temp_directory.h"

namespace resized::service::test {

// A cgroup v1 layout in a temporary directory — <root>/cpu, <root>/memory,
// <root>/cpuset — with the files the v1 backend reads and writes. The cgroup
// driver detects v1 on any directory that is not a cgroup2 mount, so the
// daemon's own DriverSelector runs on it. Plain files keep whatever is
// written; the kernel's refusals are for the tests on real cgroups.
//
// Every cgroup starts with a memory limit: the kernel shows a "-1" written
// into a v1 memory file as its largest counter, a plain file keeps "-1",
// which no reader takes. So nothing here may ever write "no memory limit".
class CgroupTree {
public:
    explicit CgroupTree(std::string nodeCpus = "0-3") : nodeCpus_(std::move(nodeCpus))
    {
        offerCpus("/", nodeCpus_);
    }

    const std::filesystem::path& root() const { return directory_.path(); }

    // A cgroup with no CPU limit, `memoryLimit` as its memory limit and
    // soft limit, and `usage` bytes charged; its parent offers the node's
    // CPUs unless restrictParent() said otherwise.
    void add(const std::string& cgroup, uint64_t memoryLimit = 256ull << 20, uint64_t usage = 64ull << 20)
    {
        const auto parent = std::filesystem::path(cgroup).parent_path().string();
        if (!std::filesystem::exists(file("cpuset", parent, "cpuset.effective_cpus")))
            offerCpus(parent, nodeCpus_);
        resized::test::writeText(file("cpu", cgroup, "cpu.cfs_quota_us"), "-1\n");
        resized::test::writeText(file("cpu", cgroup, "cpu.cfs_period_us"), "100000\n");
        resized::test::writeText(file("cpu", cgroup, "cpu.shares"), "1024\n");
        resized::test::writeText(file("memory", cgroup, "memory.limit_in_bytes"), std::to_string(memoryLimit));
        resized::test::writeText(file("memory", cgroup, "memory.soft_limit_in_bytes"), std::to_string(memoryLimit));
        setUsage(cgroup, usage);
        resized::test::writeText(file("cpuset", cgroup, "cpuset.cpus"),
                                 resized::test::readText(file("cpuset", parent, "cpuset.effective_cpus")));
        resized::test::writeText(file("cpuset", cgroup, "cpuset.mems"), "0\n");
    }

    // The cgroup goes, as when its container stops.
    void remove(const std::string& cgroup)
    {
        for (const char* controller : {"cpu", "memory", "cpuset"})
            std::filesystem::remove_all(folder(controller, cgroup));
    }

    // The parent folder of cgroups added after this offers only `cpus`.
    void restrictParent(const std::string& parent, const std::string& cpus) { offerCpus(parent, cpus); }

    void setUsage(const std::string& cgroup, uint64_t bytes)
    {
        resized::test::writeText(file("memory", cgroup, "memory.usage_in_bytes"), std::to_string(bytes) + "\n");
    }

    std::string read(std::string_view controller, const std::string& cgroup, std::string_view name) const
    {
        auto text = resized::test::readText(file(controller, cgroup, name));
        while (!text.empty() && text.back() == '\n')
            text.pop_back();
        return text;
    }
    void write(std::string_view controller, const std::string& cgroup, std::string_view name,
               std::string_view value) const
    {
        resized::test::writeText(file(controller, cgroup, name), value);
    }

    std::filesystem::path file(std::string_view controller, const std::string& cgroup, std::string_view name) const
    {
        return folder(controller, cgroup) / name;
    }

private:
    std::filesystem::path folder(std::string_view controller, const std::string& cgroup) const
    {
        return root() / controller / std::filesystem::path(cgroup).relative_path();
    }

    void offerCpus(const std::string& cgroup, const std::string& cpus)
    {
        resized::test::writeText(file("cpuset", cgroup, "cpuset.cpus"), cpus + "\n");
        resized::test::writeText(file("cpuset", cgroup, "cpuset.effective_cpus"), cpus + "\n");
        // One NUMA node.
        resized::test::writeText(file("cpuset", cgroup, "cpuset.mems"), "0\n");
        resized::test::writeText(file("cpuset", cgroup, "cpuset.effective_mems"), "0\n");
    }

    resized::test::TempDirectory directory_;
    std::string nodeCpus_;
};

}  // namespace resized::service::test
