#include "exit_status.h"

#include <array>
#include <utility>

namespace resized::ctl {

ExitStatus exitStatusForBusError(std::string_view errorName)
{
    static constexpr std::array<std::pair<std::string_view, ExitStatus>, 14> kStatusByError{{
        {"io.resized1.Error.InvalidArgument", ExitStatus::InvalidArgument},
        {"io.resized1.Error.NoSuchWorkload", ExitStatus::NoSuchWorkload},
        // Not 5: `set web --pool batch` must not read as "web does not exist".
        {"io.resized1.Error.NoSuchPool", ExitStatus::NoSuchPool},
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

}  // namespace resized::ctl
