#pragma once

#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "dictionary.h"
#include "table.h"

namespace resized::ctl {

// One pool as ListPools names it, with its io.resized1.Pool properties.
using ListedPool = BusObject;

// NAME CPU MEMORY MEMBERS: per resource what the members hold against the
// cap ("300m/500m", "max" for no cap), then how many members there are.
Table makePoolTable(const std::vector<ListedPool>& pools);

// "● NAME", then the allocations against the caps and the members, one a
// line, the way `systemctl status` lists a unit's triggers, those not in
// `managed` (the workloads resized manages) marked "(unmanaged)"; then, for
// a pool with disruption budgets, the budgets, one a line, and how many
// disruptions of reason manual they allow now.
std::string formatPoolBlock(const ListedPool& pool, const std::set<std::string>& managed);

}  // namespace resized::ctl
