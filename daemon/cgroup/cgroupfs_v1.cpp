#include "cgroup/cgroupfs_v1.h"

#include <algorithm>
#include <array>

#include "cgroup/cgroup_files.h"
#include "cgroup/cgroup_values.h"
#include "cgroup/usage_files.h"
#include "core/resources.h"

namespace resized::cgroup {

namespace {

constexpr std::string_view kMemswFile = "memory.memsw.limit_in_bytes";

constexpr uint64_t kMinShares = 2;
constexpr uint64_t kMaxShares = 262'144;

// v1 reads "no limit" as the largest page-aligned counter (9223372036854771712
// with 4 KiB pages); anything that large is no limit.
constexpr uint64_t kUnlimitedThreshold = 1ull << 62;

uint64_t parseMemoryLimit(std::string_view text, const std::filesystem::path& source)
{
    const uint64_t bytes = parseUnsigned(text, source);
    return bytes >= kUnlimitedThreshold ? core::kUnlimited : bytes;
}

std::string formatMemoryLimit(uint64_t bytes)
{
    return bytes == core::kUnlimited ? "-1" : std::to_string(bytes);
}

// cpu.cfs_quota_us holds -1 for no limit, the only negative value it shows.
std::optional<uint64_t> parseQuota(std::string_view text, const std::filesystem::path& source)
{
    if (text.starts_with("-1"))
        return std::nullopt;
    return parseUnsigned(text, source);
}

}  // namespace

uint64_t sharesForWeight(uint64_t weight)
{
    return std::clamp<uint64_t>(weight * 1024 / 100, kMinShares, kMaxShares);
}

uint64_t weightForShares(uint64_t shares)
{
    return std::clamp<uint64_t>((shares * 100 + 512) / 1024, core::kMinCpuWeight,
                                core::kMaxCpuWeight);
}

CgroupfsV1Backend::CgroupfsV1Backend(std::filesystem::path root) : root_(std::move(root)) {}

std::filesystem::path CgroupfsV1Backend::directory(std::string_view controller,
                                                   const std::string& cgroup) const
{
    return resolveCgroupDirectory(root_ / controller, cgroup);
}

bool CgroupfsV1Backend::mounted(std::string_view controller) const
{
    const std::lock_guard lock(mountedMutex_);
    if (mounted_.contains(controller))
        return true;
    if (!std::filesystem::exists(root_ / controller))
        return false;
    mounted_.emplace(controller);
    return true;
}

std::optional<std::string> CgroupfsV1Backend::readIfPresent(std::string_view controller,
                                                            const std::filesystem::path& directory,
                                                            std::string_view file) const
{
    auto text = held_.readIfExists(directory / file);
    // Only now: the files of a cgroup that exists are all there, and
    // looking at the directory first would cost a stat(2) per controller
    // on every read.
    if (!text && mounted(controller))
        requireCgroupDirectory(directory);
    return text;
}

bool CgroupfsV1Backend::exists(const std::string& cgroup) const
{
    // As read() requires: in each mounted controller.
    return std::ranges::all_of(std::array<std::string_view, 3>{"cpu", "memory", "cpuset"}, [&](auto controller) {
        return !mounted(controller) || std::filesystem::is_directory(directory(controller, cgroup));
    });
}

core::Resources CgroupfsV1Backend::read(const std::string& cgroup) const
{
    // Each mounted controller must hold the cgroup: a missing one means the
    // container is gone, not that it has no limits (readIfPresent).
    const auto cpu = directory("cpu", cgroup);
    const auto memory = directory("memory", cgroup);
    const auto cpuset = directory("cpuset", cgroup);

    core::Resources limits;
    const auto quota = readIfPresent("cpu", cpu, "cpu.cfs_quota_us");
    const auto period = readIfPresent("cpu", cpu, "cpu.cfs_period_us");
    if (quota && period) {
        const auto quotaUs = parseQuota(*quota, cpu / "cpu.cfs_quota_us");
        const uint64_t periodUs = parseUnsigned(*period, cpu / "cpu.cfs_period_us");
        limits.cpuMillis = core::kUnlimited;
        if (quotaUs)
            limits.cpuMillis = millisForBandwidth({*quotaUs, periodUs}, cpu / "cpu.cfs_quota_us");
    }
    if (const auto shares = readIfPresent("cpu", cpu, "cpu.shares"))
        limits.cpuWeight = weightForShares(parseUnsigned(*shares, cpu / "cpu.shares"));

    if (const auto text = readIfPresent("memory", memory, "memory.limit_in_bytes"))
        limits.memoryMax = parseMemoryLimit(*text, memory / "memory.limit_in_bytes");
    if (const auto text = readIfPresent("memory", memory, "memory.soft_limit_in_bytes"))
        limits.memoryHigh = parseMemoryLimit(*text, memory / "memory.soft_limit_in_bytes");

    if (const auto text = readIfPresent("cpuset", cpuset, "cpuset.cpus"))
        limits.allowedCpus = allowedCpus(*text, parentCpus(cgroup), cpuset / "cpuset.cpus");
    if (const auto text = readIfPresent("cpuset", cpuset, "cpuset.mems"))
        limits.memoryNodes = allowedCpus(*text, parentMemoryNodes(cgroup), cpuset / "cpuset.mems");
    return limits;
}

void CgroupfsV1Backend::write(const std::string& cgroup, const core::Resources& limits)
{
    if (limits.cpuMillis)
        writeCpuMillis(directory("cpu", cgroup), *limits.cpuMillis);
    if (limits.memoryMax)
        writeMemoryMax(directory("memory", cgroup), *limits.memoryMax);
    if (limits.memoryHigh)
        writeFile(directory("memory", cgroup) / "memory.soft_limit_in_bytes",
                  formatMemoryLimit(*limits.memoryHigh));
    if (limits.cpuWeight)
        writeFile(directory("cpu", cgroup) / "cpu.shares",
                  std::to_string(sharesForWeight(*limits.cpuWeight)));
    // A v1 cpuset cannot be empty while it holds tasks: "all" is all the
    // parent offers.
    if (limits.allowedCpus) {
        const auto cpus = limits.allowedCpus->empty() ? parentCpus(cgroup) : *limits.allowedCpus;
        writeFile(directory("cpuset", cgroup) / "cpuset.cpus", core::formatCpuSet(cpus));
    }
    if (limits.memoryNodes) {
        const auto nodes = limits.memoryNodes->empty() ? parentMemoryNodes(cgroup) : *limits.memoryNodes;
        writeFile(directory("cpuset", cgroup) / "cpuset.mems", core::formatCpuSet(nodes));
    }
}

void CgroupfsV1Backend::writeCpuMillis(const std::filesystem::path& cpuDirectory, uint64_t millis)
{
    const auto quotaFile = cpuDirectory / "cpu.cfs_quota_us";
    if (millis == core::kUnlimited) {
        writeFile(quotaFile, "-1");
        return;
    }
    const auto periodFile = cpuDirectory / "cpu.cfs_period_us";
    const uint64_t oldPeriod = parseUnsigned(readFile(periodFile), periodFile);
    const auto bandwidth = bandwidthForMillis(millis);
    // The kernel checks quota/period against the parent's at each write; the
    // order that never passes through a ratio above both the old and the new
    // one writes a longer period first and a shorter one last.
    if (bandwidth.periodUs > oldPeriod)
        writeFile(periodFile, std::to_string(bandwidth.periodUs));
    writeFile(quotaFile, std::to_string(bandwidth.quotaUs));
    if (bandwidth.periodUs < oldPeriod)
        writeFile(periodFile, std::to_string(bandwidth.periodUs));
}

void CgroupfsV1Backend::writeMemoryMax(const std::filesystem::path& memoryDirectory, uint64_t bytes)
{
    // With swap accounting the kernel keeps memory+swap >= memory: raise that
    // limit first when it would end up below the new one. A write never
    // lowers it: that would take away swap the workload was given. Only a
    // rollback puts it back (restoreUnreported).
    const auto memswFile = memoryDirectory / kMemswFile;
    if (const auto memsw = readFileIfExists(memswFile);
        memsw && parseMemoryLimit(*memsw, memswFile) < bytes)
        writeFile(memswFile, formatMemoryLimit(bytes));
    writeFile(memoryDirectory / "memory.limit_in_bytes", formatMemoryLimit(bytes));
}

// Without swap accounting there is no memory+swap limit to keep.
UnreportedLimits CgroupfsV1Backend::readUnreported(const std::string& cgroup) const
{
    const auto memswFile = directory("memory", cgroup) / kMemswFile;
    const auto memsw = readFileIfExists(memswFile);
    if (!memsw)
        return {};
    return {.memorySwapMax = parseMemoryLimit(*memsw, memswFile)};
}

void CgroupfsV1Backend::restoreUnreported(const std::string& cgroup, const UnreportedLimits& saved)
{
    if (saved.memorySwapMax && readUnreported(cgroup) != saved)
        writeFile(directory("memory", cgroup) / kMemswFile, formatMemoryLimit(*saved.memorySwapMax));
}

uint64_t CgroupfsV1Backend::memoryUsage(const std::string& cgroup) const
{
    const auto file = directory("memory", cgroup) / "memory.usage_in_bytes";
    return parseUnsigned(readFile(file), file);
}

// Where the kernel lacks a file (oom_kill before Linux 4.13), its counter
// reads as 0.
UsageFiles CgroupfsV1Backend::openUsage(const std::string& cgroup) const
{
    UsageFiles files;
    files.add(UsageFiles::Kind::Cpu, directory("cpuacct", cgroup) / "cpuacct.usage", {{"", 1, &Usage::cpuNsec}}, false);
    files.add(UsageFiles::Kind::Throttling, directory("cpu", cgroup) / "cpu.stat", {{"nr_throttled", 1, &Usage::throttledPeriods}}, true);
    const auto memory = directory("memory", cgroup);
    files.add(UsageFiles::Kind::Memory, memory / "memory.usage_in_bytes", {{"", 1, &Usage::memoryBytes}}, false);
    files.add(UsageFiles::Kind::Memory, memory / "memory.stat", {{"total_inactive_file", 1, &Usage::inactiveFileBytes}}, true);
    files.add(UsageFiles::Kind::Memory, memory / "memory.oom_control", {{"oom_kill", 1, &Usage::oomKills}}, true);
    return files;
}

void CgroupfsV1Backend::reclaim(const std::string&, uint64_t) {}

core::CpuSet CgroupfsV1Backend::parentCpus(const std::string& cgroup) const
{
    return parentList(cgroup, "cpus");
}

core::CpuSet CgroupfsV1Backend::parentMemoryNodes(const std::string& cgroup) const
{
    return parentList(cgroup, "mems");
}

std::vector<std::string> CgroupfsV1Backend::childCgroups(const std::string& cgroup) const
{
    return childCgroupsIn(directory("cpuset", cgroup), cgroup);
}

core::CpuSet CgroupfsV1Backend::parentList(const std::string& cgroup, std::string_view list) const
{
    // cpuset.effective_cpus (_mems) is missing on old kernels; there the
    // configured list is what the parent offers.
    const auto parent = resolveParentDirectory(root_ / "cpuset", cgroup);
    auto file = parent / ("cpuset.effective_" + std::string(list));
    auto text = held_.readIfExists(file);
    if (!text) {
        file = parent / ("cpuset." + std::string(list));
        text = readFile(file);
    }
    return parseCpus(*text, file);
}

}  // namespace resized::cgroup
