#include "cgroup/detect.h"

#include <linux/magic.h>
#include <sys/vfs.h>

#include <cerrno>
#include <cstring>

#include "cgroup/cgroup_files.h"
#include "cgroup/cgroupfs_v1.h"
#include "cgroup/cgroupfs_v2.h"

namespace resized::cgroup {

CgroupVersion detectCgroupVersion(const std::filesystem::path& root)
{
    struct statfs filesystem {};
    if (statfs(root.c_str(), &filesystem) < 0) {
        const int error = errno;
        throw CgroupError("statfs " + root.string() + ": " + std::strerror(error), error);
    }
    return filesystem.f_type == CGROUP2_SUPER_MAGIC ? CgroupVersion::V2 : CgroupVersion::V1;
}

std::optional<std::string> pressureUnavailable(const std::filesystem::path& root)
{
    if (detectCgroupVersion(root) == CgroupVersion::V1)
        return std::string("cgroup v1 keeps no pressure stall information (PSI) per cgroup; it needs cgroup v2");
    try {
        readFile("/proc/pressure/cpu");
        return std::nullopt;
    } catch (const CgroupError&) {
        // Missing without CONFIG_PSI; EOPNOTSUPP when booted with psi=0.
        return std::string("the kernel keeps no pressure stall information (PSI): boot it with psi=1");
    }
}

std::string_view versionName(CgroupVersion version)
{
    return version == CgroupVersion::V2 ? "v2" : "v1";
}

std::unique_ptr<LimitsBackend> makeCgroupfsBackend(const std::filesystem::path& root)
{
    if (detectCgroupVersion(root) == CgroupVersion::V2)
        return std::make_unique<CgroupfsV2Backend>(root);
    return std::make_unique<CgroupfsV1Backend>(root);
}

}  // namespace resized::cgroup
