#include "bus_target.h"

#include <algorithm>
#include <cctype>

namespace resized::ctl {

std::string BusTarget::description() const
{
    switch (kind) {
    case Kind::Host:
        return "the system bus of " + name + " (over ssh)";
    case Kind::Machine:
        return "the system bus of container " + name;
    case Kind::Local:
        break;
    }
    return "the system bus";
}

bool isMachineName(std::string_view name)
{
    constexpr size_t kMaxLength = 64;
    if (name == ".host")
        return true;
    if (name.empty() || name.size() > kMaxLength || name.front() == '.' || name.back() == '.' ||
        name.find("..") != std::string_view::npos)
        return false;
    return std::all_of(name.begin(), name.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '-' || c == '_' || c == '.';
    });
}

std::string machineBusAddress(std::string_view machine)
{
    // A machine name holds only characters a D-Bus address carries
    // unescaped.
    return "x-machine-unix:machine=" + std::string(machine);
}

}  // namespace resized::ctl
