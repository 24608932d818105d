#pragma once

#include <string>

#include <sdbus-c++/Message.h>

namespace resized::bus {

// Changes are for root and the members of one group. The bus policy already
// says so; the daemon checks again from the caller's credentials so that a
// lax policy file cannot open it up. Throws service::ResizeError(AccessDenied).
void requireChangePermission(const sdbus::Message& call, const std::string& adminGroup);

}  // namespace resized::bus
