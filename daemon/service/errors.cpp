#include "service/errors.h"

namespace resized::service {

std::string_view dbusErrorName(ErrorCode code)
{
    switch (code) {
    case ErrorCode::InvalidArgument:
        return "io.resized1.Error.InvalidArgument";
    case ErrorCode::NoSuchWorkload:
        return "io.resized1.Error.NoSuchWorkload";
    case ErrorCode::InsufficientResources:
        return "io.resized1.Error.InsufficientResources";
    case ErrorCode::Infeasible:
        return "io.resized1.Error.Infeasible";
    case ErrorCode::MemoryInUse:
        return "io.resized1.Error.MemoryInUse";
    case ErrorCode::ApplyFailed:
        return "io.resized1.Error.ApplyFailed";
    case ErrorCode::RuntimeUnavailable:
        return "io.resized1.Error.RuntimeUnavailable";
    case ErrorCode::AccessDenied:
        return "org.freedesktop.DBus.Error.AccessDenied";
    }
    return "io.resized1.Error.ApplyFailed";
}

}  // namespace resized::service
