#include "cgroup/usage_files.h"

#include <fcntl.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <span>

#include "cgroup/cgroup_values.h"

namespace resized::cgroup {

void UsageFiles::add(Kind kind, const std::filesystem::path& path, std::vector<Counter> counters, bool optional)
{
    try {
        files_.push_back({kind, openFile(path, O_RDONLY), path, std::move(counters)});
    } catch (const CgroupError& error) {
        if (!optional || error.error() != ENOENT)
            throw;
    }
}

void UsageFiles::addPressure(const std::filesystem::path& path, std::optional<PressureStall> Usage::*field)
{
    try {
        pressureFiles_.push_back({openFile(path, O_RDONLY), path, field});
    } catch (const CgroupError& error) {
        if (error.error() != ENOENT)
            throw;
    }
}

Usage LimitsBackend::usage(const std::string& cgroup) const { return openUsage(cgroup).read(); }

namespace {

// The file's text from its start: `buffer` is large enough for any counter
// file (memory.stat, the longest, is about a kilobyte). -1 and errno set on
// failure.
ssize_t readWhole(const FileDescriptor& descriptor, std::span<char> buffer)
{
    ssize_t count;
    do
        count = pread(descriptor.get(), buffer.data(), buffer.size(), 0);
    while (count < 0 && errno == EINTR);
    return count;
}

}  // namespace

Usage UsageFiles::read(Kinds kinds) const
{
    Usage usage;
    std::array<char, 8192> buffer;
    for (const auto& file : files_) {
        if ((file.kind == Kind::Memory && !kinds.memory) || (file.kind == Kind::Throttling && !kinds.throttling))
            continue;
        const ssize_t count = readWhole(file.descriptor, buffer);
        if (count < 0)
            throw CgroupError("read " + file.path.string() + ": " + std::strerror(errno), errno);
        const std::string_view text(buffer.data(), static_cast<size_t>(count));
        for (const auto& counter : file.counters) {
            const uint64_t value = counter.key.empty() ? parseUnsigned(text, file.path)
                                                       : keyedValue(text, counter.key, file.path).value_or(0);
            usage.*counter.field = value * counter.scale;
        }
    }
    if (!kinds.pressure)
        return usage;
    for (const auto& file : pressureFiles_) {
        const ssize_t count = readWhole(file.descriptor, buffer);
        if (count < 0)
            continue;
        const std::string_view text(buffer.data(), static_cast<size_t>(count));
        usage.*file.field = PressureStall{.someUsec = pressureTotal(text, "some", file.path).value_or(0),
                                          .fullUsec = pressureTotal(text, "full", file.path).value_or(0)};
    }
    return usage;
}

}  // namespace resized::cgroup
