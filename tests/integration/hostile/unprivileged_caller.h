#pragma once

#include "support/command.h"

#include <string>
#include <vector>

namespace resized::integration
{

// `busctl --system ARGUMENTS` run as user through runuser: a real caller
// without privileges on the test bus.
CommandResult busctlAs(const std::string& user, const std::vector<std::string>& arguments);

// hostile_bus_caller (bus_caller.cpp) run as user: "ok", or the error's
// name and message, "NAME: MESSAGE".
std::string callAs(const std::string& user, const std::vector<std::string>& arguments);

} // namespace resized::integration
