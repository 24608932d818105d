#pragma once

#include <stdexcept>
#include <string_view>

#include "core/resources.h"

namespace resized::ctl {

// An assignment resizectl cannot read, with a message naming it.
class AssignmentError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// One `Property=value` as `systemctl set-property` takes it, read with
// systemd's own rules (systemd.resource-control(5)), as the resource it sets:
//   CPUQuota=150%      CPU time in percent of one CPU; 1% is 10 millicores
//   MemoryMax=1G       hard limit: K, M, G, T, P, E are powers of 1024
//   MemoryHigh=1G      throttle threshold (cgroup v1: soft limit)
//   CPUWeight=100      1..10000
//   AllowedCPUs=0-1    a CPU list, commas or spaces between entries
// An empty value resets as systemd does: no quota, no memory limit, the
// default weight 100, every CPU; "infinity" means no limit.
// Throws AssignmentError for another property or a value systemd would not
// read or resized cannot hold (a memory percentage, CPUWeight=idle, a quota
// finer than a millicore).
core::Resources parseSystemdAssignment(std::string_view assignment);

}  // namespace resized::ctl
