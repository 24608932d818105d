#include "cgroup/driver_selector.h"

#include "cgroup/detect.h"
#include "cgroup/systemd_backend.h"

namespace resized::cgroup {

DriverSelector::DriverSelector(std::filesystem::path root, DriverChoice choice)
    : root_(std::move(root)),
      choice_(choice),
      systemdRunsTree_(choice == DriverChoice::Auto && systemdManagesCgroups(root_)),
      cgroupfs_(makeCgroupfsBackend(root_))
{
}

DriverSelector::~DriverSelector() = default;

LimitsBackend& DriverSelector::forCgroup(const std::string& cgroup)
{
    const bool throughSystemd =
        choice_ == DriverChoice::Systemd || (systemdRunsTree_ && isSystemdUnitCgroup(cgroup));
    if (!throughSystemd)
        return *cgroupfs_;
    if (!systemd_)
        systemd_ = makeSystemdBackend(root_);
    return *systemd_;
}

}  // namespace resized::cgroup
