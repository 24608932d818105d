#include "support/host_cpus.h"

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
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

// "0-2,5" as {0, 1, 2, 5}; "" as none.
std::set<unsigned> parseCpuList(const std::string& list)
{
    std::set<unsigned> cpus;
    std::istringstream ranges(list);
    std::string range;
    while (std::getline(ranges, range, ','))
    {
        const auto dash = range.find('-');
        const unsigned first = std::stoul(range.substr(0, dash));
        const unsigned last = dash == std::string::npos ? first : std::stoul(range.substr(dash + 1));
        for (unsigned cpu = first; cpu <= last; ++cpu)
        {
            cpus.insert(cpu);
        }
    }
    return cpus;
}

std::string formatCpuList(const std::set<unsigned>& cpus)
{
    std::string list;
    for (auto cpu = cpus.begin(); cpu != cpus.end();)
    {
        const unsigned first = *cpu;
        unsigned last = first;
        while (++cpu != cpus.end() && *cpu == last + 1)
        {
            last = *cpu;
        }
        list += (list.empty() ? "" : ",") + std::to_string(first);
        if (last != first)
        {
            list += "-" + std::to_string(last);
        }
    }
    return list;
}

} // namespace

std::string onlineCpuList()
{
    return firstLineOf(sysDevices / "cpu/online");
}

unsigned onlineCpuCount()
{
    return parseCpuList(onlineCpuList()).size();
}

bool isOneOnlineCpu(const std::string& cpus)
{
    const auto parsed = parseCpuList(cpus);
    return parsed.size() == 1 && parseCpuList(onlineCpuList()).contains(*parsed.begin());
}

std::string onlineCpusExcept(const std::string& cpus)
{
    auto online = parseCpuList(onlineCpuList());
    for (const unsigned cpu : parseCpuList(cpus))
    {
        online.erase(cpu);
    }
    return formatCpuList(online);
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
