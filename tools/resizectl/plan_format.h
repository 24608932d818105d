#pragma once

#include <string>
#include <vector>

#include "dictionary.h"
#include "table.h"
#include "time_format.h"

namespace resized::ctl {

// One plan as ListPlans names it, with its io.resized1.Plan properties.
using ListedPlan = BusObject;

// ID STATE REASON SUBMITTED FINISHED CHANGES: the times as history shows
// them ("-" for not yet), how many changes the plan has.
Table makePlanTable(const std::vector<ListedPlan>& plans);

// "● plan ID", then the state with its reason, the daemon's message, when
// it was submitted and finished, and its changes, one a line
// ("web: cpu=500m memory.max=1Gi").
std::string formatPlanBlock(const ListedPlan& plan, Clock::time_point now);

}  // namespace resized::ctl
