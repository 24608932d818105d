#include "support/cgroup_hierarchy.h"

#include <fstream>
#include <iterator>
#include <stdexcept>

#include <linux/magic.h>
#include <sys/statfs.h>

namespace resized::integration
{

namespace
{

const std::filesystem::path cgroupRoot = "/sys/fs/cgroup";

// A v2 limit: "max" or a number.
std::optional<std::uint64_t> v2Limit(const std::string& text)
{
    if (text == "max")
    {
        return std::nullopt;
    }
    return std::stoull(text);
}

} // namespace

bool unifiedCgroupHierarchy()
{
    struct statfs filesystem{};
    if (statfs(cgroupRoot.c_str(), &filesystem) != 0)
    {
        throw std::runtime_error("cannot statfs " + cgroupRoot.string());
    }
    return filesystem.f_type == CGROUP2_SUPER_MAGIC;
}

std::filesystem::path cgroupFolder(const std::filesystem::path& cgroupPath,
                                   std::string_view v1Controller)
{
    return (unifiedCgroupHierarchy() ? cgroupRoot : cgroupRoot / v1Controller) / cgroupPath.relative_path();
}

std::string readCgroupFile(const std::filesystem::path& file)
{
    std::ifstream stream(file);
    if (!stream)
    {
        throw std::runtime_error("cannot open " + file.string());
    }
    std::string text{std::istreambuf_iterator<char>(stream), {}};
    while (!text.empty() && text.back() == '\n')
    {
        text.pop_back();
    }
    return text;
}

std::string cpusOf(const std::filesystem::path& cgroupPath)
{
    return readCgroupFile(cgroupFolder(cgroupPath, "cpuset") /
                          (unifiedCgroupHierarchy() ? "cpuset.cpus.effective" : "cpuset.cpus"));
}

CpuMax readCpuMax(const std::filesystem::path& cgroupPath)
{
    const std::string text = readCgroupFile(cgroupFolder(cgroupPath, "cpu") / "cpu.max");
    const auto space = text.find(' ');
    return {.quotaUs = v2Limit(text.substr(0, space)), .periodUs = std::stoull(text.substr(space + 1))};
}

std::optional<std::uint64_t> readMemoryMax(const std::filesystem::path& cgroupPath)
{
    return v2Limit(readCgroupFile(cgroupFolder(cgroupPath, "memory") / "memory.max"));
}

} // namespace resized::integration
