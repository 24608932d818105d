#include "exit_status.h"

#include <array>
#include <utility>

namespace resized::ctl {

ExitStatus exitStatusForBusError(std::string_view errorName)
{
    static constexpr std::array<std::pair<std::string_view, ExitStatus>, 15> kStatusByError{{
        {"io.resized1.Error.InvalidArgument", ExitStatus::InvalidArgument},
        {"io.resized1.Error.NoSuchWorkload", ExitStatus::NoSuchWorkload},
        // Not 5: `set web --pool batch` must not read as "web does not exist".
        {"io.resized1.Error.NoSuchPool", ExitStatus::NoSuchPool},
        {"io.resized1.Error.NoSuchPlan", ExitStatus::NoSuchPlan},
        {"io.resized1.Error.InsufficientResources", ExitStatus::InsufficientResources},
        {"io.resized1.Error.Infeasible", ExitStatus::Infeasible},
        {"io.resized1.Error.BudgetExhausted", ExitStatus::BudgetExhausted},
        {"io.resized1.Error.MemoryInUse", ExitStatus::MemoryInUse},
        {"io.resized1.Error.ApplyFailed", ExitStatus::ApplyFailed},
        {"io.resized1.Error.RuntimeUnavailable", ExitStatus::RuntimeUnavailable},
        {"org.freedesktop.DBus.Error.AccessDenied", ExitStatus::AccessDenied},
        {"org.freedesktop.DBus.Error.ServiceUnknown", ExitStatus::DaemonNotRunning},
        {"org.freedesktop.DBus.Error.NameHasNoOwner", ExitStatus::DaemonNotRunning},
        // An older daemon that lacks a method or property this client knows.
        {"org.freedesktop.DBus.Error.UnknownMethod", ExitStatus::NotSupported},
        {"org.freedesktop.DBus.Error.UnknownProperty", ExitStatus::NotSupported},
    }};
    for (const auto& [name, status] : kStatusByError)
        if (name == errorName)
            return status;
    return ExitStatus::Failure;
}

ExitStatus exitStatusForPlan(std::string_view state, std::string_view reason)
{
    if (state == "succeeded")
        return ExitStatus::Success;
    if (state == "cancelled")
        return ExitStatus::PlanCancelled;
    static constexpr std::array<std::pair<std::string_view, ExitStatus>, 5> kStatusByReason{{
        {"capacity", ExitStatus::InsufficientResources},
        {"infeasible", ExitStatus::Infeasible},
        {"budget", ExitStatus::BudgetExhausted},
        {"apply", ExitStatus::ApplyFailed},
        {"churn", ExitStatus::PlanOutdated},
    }};
    if (state == "rejected" || state == "failed")
        for (const auto& [name, status] : kStatusByReason)
            if (name == reason)
                return status;
    return ExitStatus::Failure;
}

}  // namespace resized::ctl
