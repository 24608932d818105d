#include "cgroup/usage_files.h"

#include <fcntl.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>

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

Usage LimitsBackend::usage(const std::string& cgroup) const { return openUsage(cgroup).read(); }

Usage UsageFiles::read(bool withMemory) const
{
    Usage usage;
    // memory.stat, the longest, is about a kilobyte.
    std::array<char, 8192> buffer;
    for (const auto& file : files_) {
        if (file.kind == Kind::Memory && !withMemory)
            continue;
        ssize_t count;
        do
            count = pread(file.descriptor.get(), buffer.data(), buffer.size(), 0);
        while (count < 0 && errno == EINTR);
        if (count < 0)
            throw CgroupError("read " + file.path.string() + ": " + std::strerror(errno), errno);
        const std::string_view text(buffer.data(), static_cast<size_t>(count));
        for (const auto& counter : file.counters) {
            const uint64_t value = counter.key.empty() ? parseUnsigned(text, file.path)
                                                       : keyedValue(text, counter.key, file.path).value_or(0);
            usage.*counter.field = value * counter.scale;
        }
    }
    return usage;
}

}  // namespace resized::cgroup
