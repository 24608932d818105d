#include "cgroup/cgroupfs_v2.h"

#include <fcntl.h>

#include <cerrno>

#include "cgroup/cgroup_files.h"
#include "cgroup/cgroup_values.h"
#include "cgroup/usage_files.h"
#include "core/resources.h"

namespace resized::cgroup {

namespace {

// cpu.max: "max 100000" or "<quota> <period>".
uint64_t parseCpuMax(std::string_view text, const std::filesystem::path& source)
{
    const auto space = text.find(' ');
    if (space == std::string_view::npos)
        throw CgroupError(source.string() + ": expected \"<quota> <period>\", read \""
                          + std::string(text) + '"');
    const uint64_t quota = parseLimit(text.substr(0, space), source);
    const uint64_t period = parseUnsigned(text.substr(space + 1), source);
    if (quota == core::kUnlimited)
        return core::kUnlimited;
    return millisForBandwidth({quota, period}, source);
}

std::string formatCpuMax(uint64_t millis)
{
    if (millis == core::kUnlimited)
        return "max " + std::to_string(kDefaultCpuPeriodUs);
    const auto bandwidth = bandwidthForMillis(millis);
    return std::to_string(bandwidth.quotaUs) + ' ' + std::to_string(bandwidth.periodUs);
}

}  // namespace

CgroupfsV2Backend::CgroupfsV2Backend(std::filesystem::path root) : root_(std::move(root)) {}

std::filesystem::path CgroupfsV2Backend::directory(const std::string& cgroup) const
{
    return resolveCgroupDirectory(root_, cgroup);
}

bool CgroupfsV2Backend::exists(const std::string& cgroup) const
{
    return std::filesystem::is_directory(directory(cgroup));
}

core::Resources CgroupfsV2Backend::read(const std::string& cgroup) const
{
    const auto dir = directory(cgroup);
    requireCgroupDirectory(dir);
    core::Resources limits;
    if (const auto text = held_.readIfExists(dir / "cpu.max"))
        limits.cpuMillis = parseCpuMax(*text, dir / "cpu.max");
    if (const auto text = held_.readIfExists(dir / "memory.max"))
        limits.memoryMax = parseLimit(*text, dir / "memory.max");
    if (const auto text = held_.readIfExists(dir / "memory.high"))
        limits.memoryHigh = parseLimit(*text, dir / "memory.high");
    if (const auto text = held_.readIfExists(dir / "cpu.weight"))
        limits.cpuWeight = parseUnsigned(*text, dir / "cpu.weight");
    if (const auto text = held_.readIfExists(dir / "cpuset.cpus"))
        limits.allowedCpus = allowedCpus(*text, parentCpus(cgroup), dir / "cpuset.cpus");
    if (const auto text = held_.readIfExists(dir / "cpuset.mems"))
        limits.memoryNodes = allowedCpus(*text, parentMemoryNodes(cgroup), dir / "cpuset.mems");
    return limits;
}

void CgroupfsV2Backend::write(const std::string& cgroup, const core::Resources& limits)
{
    const auto dir = directory(cgroup);
    if (limits.cpuMillis)
        writeFile(dir / "cpu.max", formatCpuMax(*limits.cpuMillis));
    if (limits.memoryMax)
        writeFile(dir / "memory.max", formatLimit(*limits.memoryMax));
    if (limits.memoryHigh)
        writeFile(dir / "memory.high", formatLimit(*limits.memoryHigh));
    if (limits.cpuWeight)
        writeFile(dir / "cpu.weight", std::to_string(*limits.cpuWeight));
    // An empty cpuset.cpus inherits the parent's CPUs. The newline makes the
    // write non-empty: a write of zero bytes never reaches the kernel's parser.
    if (limits.allowedCpus)
        writeFile(dir / "cpuset.cpus", core::formatCpuSet(*limits.allowedCpus) + '\n');
    if (limits.memoryNodes)
        writeFile(dir / "cpuset.mems", core::formatCpuSet(*limits.memoryNodes) + '\n');
}

uint64_t CgroupfsV2Backend::memoryUsage(const std::string& cgroup) const
{
    const auto file = directory(cgroup) / "memory.current";
    return parseUnsigned(readFile(file), file);
}

UsageFiles CgroupfsV2Backend::openUsage(const std::string& cgroup) const
{
    UsageFiles files;
    const auto dir = directory(cgroup);
    // The cpu controller need not be enabled: cpu.stat is always there.
    files.add(UsageFiles::Kind::Cpu, dir / "cpu.stat", {{"usage_usec", 1000, &Usage::cpuNsec}, {"nr_throttled", 1, &Usage::throttledPeriods}},
              false);
    files.add(UsageFiles::Kind::Memory, dir / "memory.current", {{"", 1, &Usage::memoryBytes}}, true);
    files.add(UsageFiles::Kind::Memory, dir / "memory.stat", {{"inactive_file", 1, &Usage::inactiveFileBytes}}, true);
    files.add(UsageFiles::Kind::Memory, dir / "memory.events", {{"oom_kill", 1, &Usage::oomKills}}, true);
    files.addPressure(dir / "cpu.pressure", &Usage::cpuPressure);
    files.addPressure(dir / "memory.pressure", &Usage::memoryPressure);
    return files;
}

std::optional<FileDescriptor> CgroupfsV2Backend::armPressureTrigger(const std::string& cgroup,
                                                                    PressureResource resource,
                                                                    std::chrono::microseconds threshold,
                                                                    std::chrono::microseconds window) const
{
    const auto file = directory(cgroup) / (resource == PressureResource::Cpu ? "cpu.pressure" : "memory.pressure");
    try {
        auto trigger = openFile(file, O_RDWR | O_NONBLOCK);
        writeFile(trigger, file, "some " + std::to_string(threshold.count()) + " " + std::to_string(window.count()));
        return trigger;
    } catch (const CgroupError& error) {
        // No file (a kernel without PSI per cgroup), or PSI booted off.
        if (error.error() == ENOENT || error.error() == EOPNOTSUPP)
            return std::nullopt;
        throw;
    }
}

void CgroupfsV2Backend::reclaim(const std::string& cgroup, uint64_t bytes)
{
    if (bytes == 0)
        return;
    try {
        writeFile(directory(cgroup) / "memory.reclaim", std::to_string(bytes));
    } catch (const CgroupError& error) {
        // Reclaim only speeds up the wait for usage to fall: kernels before
        // 5.19 have no memory.reclaim (ENOENT), and the kernel answers EAGAIN
        // when it could not reclaim all that was asked.
        if (error.error() != ENOENT && error.error() != EINVAL && error.error() != EAGAIN)
            throw;
    }
}

core::CpuSet CgroupfsV2Backend::parentCpus(const std::string& cgroup) const
{
    const auto file = resolveParentDirectory(root_, cgroup) / "cpuset.cpus.effective";
    return parseCpus(readFile(file), file);
}

core::CpuSet CgroupfsV2Backend::parentMemoryNodes(const std::string& cgroup) const
{
    const auto file = resolveParentDirectory(root_, cgroup) / "cpuset.mems.effective";
    return parseCpus(readFile(file), file);
}

std::vector<std::string> CgroupfsV2Backend::childCgroups(const std::string& cgroup) const
{
    return childCgroupsIn(directory(cgroup), cgroup);
}

}  // namespace resized::cgroup
