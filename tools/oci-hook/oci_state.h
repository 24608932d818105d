#pragma once

#include <sys/types.h>

#include <stdexcept>
#include <string>
#include <string_view>

namespace resized::hook {

// The part of the OCI runtime state (runtime-spec "state") the hook needs.
struct OciState {
    std::string id;
    pid_t pid = 0;
    std::string status;
    std::string bundle;
};

class InvalidState : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Parses the state a runtime writes on a hook's standard input. Throws
// InvalidState when it is not JSON, or `id` or a positive `pid` is missing.
OciState parseOciState(std::string_view json);

}  // namespace resized::hook
