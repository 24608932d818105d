#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

namespace resized::service {

// The error classes of the D-Bus contract. The service reports a class; the
// bus layer names it (bus/errors_translation.h).
enum class ErrorCode {
    InvalidArgument,
    NoSuchWorkload,
    NoSuchPool,
    NoSuchPlan,
    InsufficientResources,
    Infeasible,
    BudgetExhausted,
    MemoryInUse,
    ApplyFailed,
    RuntimeUnavailable,
    AccessDenied,
    // The state database could not be read or written.
    Failed,
};

// "InsufficientResources", ...: the class's name, for logs and history.
std::string_view toString(ErrorCode code);

class ResizeError : public std::runtime_error {
public:
    ResizeError(ErrorCode code, const std::string& message) : std::runtime_error(message), code_(code) {}
    ErrorCode code() const { return code_; }

private:
    ErrorCode code_;
};

}  // namespace resized::service
