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
    NoSuchPlan = 16,
    // A plan rejected because its workloads changed after it was made
    // (reason "churn"): made again from what is there now, it may pass.
    PlanOutdated = 17,
    PlanCancelled = 18,
};

// The exit status that tells a script which D-Bus error the daemon answered.
ExitStatus exitStatusForBusError(std::string_view errorName);

// The exit status of a finished plan, by its state and reason: 0 for
// "succeeded"; a refusal by the status `set` exits with for the same cause
// (6 "capacity", 7 "infeasible", 15 "budget", 9 "apply"), 17 for "churn",
// 18 for "cancelled"; 1 for anything else.
ExitStatus exitStatusForPlan(std::string_view state, std::string_view reason);

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
