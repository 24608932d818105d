#include "cgroup/cpu_topology_files.h"

#include <charconv>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>

#include "core/cpuset.h"

namespace resized::cgroup {
namespace {

std::string readSysFile(const std::filesystem::path& path)
{
    std::ifstream file(path);
    if (!file)
        throw std::runtime_error("cannot open " + path.string());
    std::string text(std::istreambuf_iterator<char>(file), {});
    if (file.bad())
        throw std::runtime_error("cannot read " + path.string());
    while (!text.empty() && (text.back() == '\n' || text.back() == ' '))
        text.pop_back();
    return text;
}

std::runtime_error malformed(const std::filesystem::path& path, const std::string& text, std::string_view expected)
{
    return std::runtime_error(path.string() + " holds \"" + text + "\", which is no " + std::string(expected));
}

core::CpuSet readCpuList(const std::filesystem::path& path)
{
    const auto text = readSysFile(path);
    const auto cpus = core::parseCpuSet(text);
    if (!cpus)
        throw malformed(path, text, "CPU list");
    return *cpus;
}

std::optional<unsigned> parseNumber(std::string_view text)
{
    unsigned number = 0;
    const auto* end = text.data() + text.size();
    const auto [next, error] = std::from_chars(text.data(), end, number);
    if (text.empty() || error != std::errc() || next != end)
        return std::nullopt;
    return number;
}

// The kernel writes -1 where it cannot tell a CPU's package or core (some
// architectures and hypervisors): such CPUs count as package or core 0.
unsigned readTopologyNumber(const std::filesystem::path& path)
{
    const auto text = readSysFile(path);
    if (text == "-1")
        return 0;
    const auto number = parseNumber(text);
    if (!number)
        throw malformed(path, text, "number");
    return *number;
}

// The node of each CPU the node directories list; nullopt for a kernel
// without them.
std::optional<std::map<unsigned, unsigned>> readNumaNodes(const std::filesystem::path& nodeRoot)
{
    std::error_code error;
    std::filesystem::directory_iterator entries(nodeRoot, error);
    if (error == std::errc::no_such_file_or_directory)
        return std::nullopt;
    if (error)
        throw std::runtime_error("cannot list " + nodeRoot.string() + ": " + error.message());

    std::map<unsigned, unsigned> nodeOfCpu;
    for (const auto& entry : entries) {
        // Beside the node directories lie files such as online and has_cpu.
        constexpr std::string_view kPrefix = "node";
        const auto name = entry.path().filename().string();
        const auto node = name.starts_with(kPrefix) ? parseNumber(std::string_view(name).substr(kPrefix.size()))
                                                    : std::nullopt;
        if (!node)
            continue;
        for (const unsigned cpu : readCpuList(entry.path() / "cpulist"))
            nodeOfCpu[cpu] = *node;
    }
    return nodeOfCpu;
}

}  // namespace

core::CpuTopology readCpuTopology(const std::filesystem::path& sysRoot)
{
    const auto cpuRoot = sysRoot / "devices/system/cpu";
    const auto nodeRoot = sysRoot / "devices/system/node";
    const auto nodeOfCpu = readNumaNodes(nodeRoot);

    std::map<unsigned, core::CpuLocation> locations;
    for (const unsigned cpu : readCpuList(cpuRoot / "online")) {
        const auto topology = cpuRoot / ("cpu" + std::to_string(cpu)) / "topology";
        auto& location = locations[cpu];
        location.socket = readTopologyNumber(topology / "physical_package_id");
        location.coreId = readTopologyNumber(topology / "core_id");
        if (!nodeOfCpu)
            continue;
        const auto node = nodeOfCpu->find(cpu);
        if (node == nodeOfCpu->end())
            throw std::runtime_error("CPU " + std::to_string(cpu) + " is online but no " + nodeRoot.string() +
                                     "/node*/cpulist lists it");
        location.numaNode = node->second;
    }
    return core::CpuTopology(std::move(locations));
}

}  // namespace resized::cgroup
