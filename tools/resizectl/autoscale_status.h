#pragma once

#include <string>

#include "core/autoscale.h"
#include "dictionary.h"
#include "time_format.h"

namespace resized::ctl {

// `resizectl autoscale status` in the way `systemctl status` shows a unit:
// the policy (as the options of `autoscale set` name it), then what the
// status's AutoscaleStatus holds: usage, recommendations, the condition and
// the last change. Keys AutoscaleStatus lacks are left out.
std::string formatAutoscaleBlock(const std::string& workload, const core::autoscale::Policy& policy,
                                 const Dictionary& autoscaleStatus, Clock::time_point now);

}  // namespace resized::ctl
