#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

namespace resized::service {

// The error classes of the D-Bus contract; the bus layer maps each to its
// io.resized1.Error.* name.
enum class ErrorCode {
    InvalidArgument,
    NoSuchWorkload,
    InsufficientResources,
    Infeasible,
    MemoryInUse,
    ApplyFailed,
    RuntimeUnavailable,
    AccessDenied,
};

std::string_view dbusErrorName(ErrorCode code);

class ResizeError : public std::runtime_error {
public:
    ResizeError(ErrorCode code, const std::string& message) : std::runtime_error(message), code_(code) {}
    ErrorCode code() const { return code_; }

private:
    ErrorCode code_;
};

}  // namespace resized::service
