#include "support/host_cpus.h"

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <system_error>

namespace resized::integration
{
namespace
{

const std::filesystem::path sysDevices = "/sys/devices/system";

std::string firstLineOf(const std::filesystem::path& path)
{
    std::ifstream file(path);
    std::string line;
    if (!file || !std::getline(file, line))
    {
        throw std::runtime_error("cannot read " + path.string());
    }
    return line;
}

} // namespace

std::string onlineCpuList()
{
    return firstLineOf(sysDevices / "cpu/online");
}

unsigned numaNodesWithCpus()
{
    std::error_code error;
    std::filesystem::directory_iterator entries(sysDevices / "node", error);
    if (error == std::errc::no_such_file_or_directory)
    {
        return 1;
    }
    if (error)
    {
        throw std::runtime_error("cannot list " + (sysDevices / "node").string());
    }
    unsigned nodes = 0;
    for (const auto& entry : entries)
    {
        // A memory-only node lists no CPUs; online, possible and the like
        // are files beside the node folders.
        const auto cpulist = entry.path() / "cpulist";
        const bool isNode = entry.path().filename().string().starts_with("node");
        if (isNode && std::filesystem::exists(cpulist) && !firstLineOf(cpulist).empty())
        {
            ++nodes;
        }
    }
    return nodes;
}

} // namespace resized::integration
