#include "support/cgroup_v1.h"

#include "support/cgroup_hierarchy.h"
#include "support/wait.h"

namespace resized::integration
{

CgroupV1::CgroupV1(std::filesystem::path cgroupPath, std::filesystem::path root) :
    cgroupPath_(std::move(cgroupPath)), root_(std::move(root))
{}

std::filesystem::path CgroupV1::file(std::string_view controller,
                                     std::string_view name) const
{
    return root_ / controller / cgroupPath_.relative_path() / name;
}

std::string CgroupV1::read(std::string_view controller, std::string_view name) const
{
    return readCgroupFile(file(controller, name));
}

std::int64_t CgroupV1::readNumber(std::string_view controller,
                                  std::string_view name) const
{
    return std::stoll(read(controller, name));
}

bool CgroupV1::waitForMemoryUsageAbove(std::uint64_t bytes,
                                       std::chrono::milliseconds timeout) const
{
    return waitUntil(
        [&] {
            return static_cast<std::uint64_t>(
                       readNumber("memory", "memory.usage_in_bytes")) > bytes;
        },
        timeout);
}

} // namespace resized::integration
