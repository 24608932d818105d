#pragma once

#include <string>
#include <string_view>

namespace resized::ctl {

// Whose system bus resizectl talks to, chosen as systemctl chooses it:
// this machine's, a remote host's over ssh (-H), or a local container's (-M).
struct BusTarget {
    enum class Kind { Local, Host, Machine };

    Kind kind = Kind::Local;
    // [USER@]HOST[:PORT] for Host, the container's name for Machine.
    std::string name;

    bool isLocal() const { return kind == Kind::Local; }
    // "the system bus", "the system bus of HOST (over ssh)", ...
    std::string description() const;
};

// A container name as systemd-machined registers it: a host name (letters,
// digits, '-', '_', dot-separated labels, at most 64 characters), or ".host".
bool isMachineName(std::string_view name);

// The sd-bus address of the system bus inside the local container `machine`
// (sd_bus_set_address(3), "x-machine-unix:"), the address
// sd_bus_open_system_machine() opens. `machine` must be a machine name.
std::string machineBusAddress(std::string_view machine);

}  // namespace resized::ctl
