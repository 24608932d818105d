#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/disruption.h"

namespace resized::service {

// Whether the time zone database knows `name` (an IANA name such as
// "Europe/Berlin").
bool knownTimeZone(const std::string& name);

// The budgets of `budgets` in force at `nowUsec` (design.md §1b): those
// without a window, and those whose window holds it. A budget whose window
// cannot be evaluated, as when its time zone left the database, is in force
// and allows nothing.
std::vector<core::DisruptionBudget> budgetsInForce(const std::vector<core::DisruptionBudget>& budgets,
                                                   uint64_t nowUsec);

}  // namespace resized::service
