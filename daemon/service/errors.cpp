#include "service/errors.h"

namespace resized::service {

std::string_view toString(ErrorCode code)
{
    switch (code) {
    case ErrorCode::InvalidArgument:
        return "InvalidArgument";
    case ErrorCode::NoSuchWorkload:
        return "NoSuchWorkload";
    case ErrorCode::NoSuchPool:
        return "NoSuchPool";
    case ErrorCode::NoSuchPlan:
        return "NoSuchPlan";
    case ErrorCode::InsufficientResources:
        return "InsufficientResources";
    case ErrorCode::Infeasible:
        return "Infeasible";
    case ErrorCode::BudgetExhausted:
        return "BudgetExhausted";
    case ErrorCode::MemoryInUse:
        return "MemoryInUse";
    case ErrorCode::ApplyFailed:
        return "ApplyFailed";
    case ErrorCode::RuntimeUnavailable:
        return "RuntimeUnavailable";
    case ErrorCode::AccessDenied:
        return "AccessDenied";
    case ErrorCode::Failed:
        return "Failed";
    }
    return "ApplyFailed";
}

}  // namespace resized::service
