#pragma once

#include <sys/types.h>

#include <chrono>
#include <optional>
#include <string>

namespace resized::integration
{

// Asks the system bus (DBUS_SYSTEM_BUS_ADDRESS) whether name has an owner.
bool busNameHasOwner(const std::string& name);

// The process ID of name's owner; empty when the name has no owner.
std::optional<pid_t> busNameOwnerPid(const std::string& name);

// Waits until name has (or, with owned = false, no longer has) an owner;
// false on timeout.
bool waitForBusName(const std::string& name, bool owned,
                    std::chrono::milliseconds timeout);

} // namespace resized::integration
