#pragma once

#include <set>
#include <string>

namespace resized::integration
{

// The CPUs of a kernel CPU list such as "0-3,6" (the format of sysfs, of
// cpuset files and of the Manager's CPU properties); "" is none. Parsed by
// the tests themselves, so that the daemon's readings are checked against
// an independent reading.
std::set<unsigned> parseCpuList(const std::string& list);

} // namespace resized::integration
