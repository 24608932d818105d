#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

namespace resized::ctl {

// Documented in resizectl(1), section EXIT STATUS: scripts branch on these
// numbers, so they never change meaning.
enum class ExitStatus : int {
    Success = 0,
    Failure = 1,
    Usage = 2,
    Refused = 3,
    InvalidArgument = 4,
    NoSuchWorkload = 5,
    InsufficientResources = 6,
    Infeasible = 7,
    MemoryInUse = 8,
    ApplyFailed = 9,
    RuntimeUnavailable = 10,
    AccessDenied = 11,
    DaemonNotRunning = 12,
    NotSupported = 13,
    NoSuchPool = 14,
    BudgetExhausted = 15,
};

// The exit status that tells a script which D-Bus error the daemon answered.
ExitStatus exitStatusForBusError(std::string_view errorName);

// A failure to report as "resizectl: <message>" before exiting with `status`.
class CommandError : public std::runtime_error {
public:
    CommandError(ExitStatus status, const std::string& message)
        : std::runtime_error(message), status_(status)
    {
    }

    ExitStatus status() const { return status_; }

private:
    ExitStatus status_;
};

}  // namespace resized::ctl
