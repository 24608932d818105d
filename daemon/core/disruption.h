#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/cron.h"
#include "core/resources.h"
#include "core/states.h"

namespace resized::core {

// One disruption budget of a pool: at most `value` disruptions (or
// `value` percent of the pool's members, rounded up, as Karpenter) over a
// sliding `periodUsec` (0: only those in flight), for `reasons` (empty: all).
struct DisruptionBudget {
    // The budget applies only inside a window of `durationUsec` that opens
    // whenever `schedule` fires on the wall clock of `timeZone` (an IANA
    // name).
    struct Window {
        CronSchedule schedule;
        uint64_t durationUsec = 0;
        std::string timeZone = "UTC";
        bool operator==(const Window&) const = default;
    };

    uint64_t value = 0;
    bool percent = false;
    uint64_t periodUsec = 0;
    std::set<DisruptionReason> reasons;
    std::optional<Window> window{};

    bool appliesTo(DisruptionReason reason) const { return reasons.empty() || reasons.contains(reason); }
    bool operator==(const DisruptionBudget&) const = default;
};

// "2" or "25%" (at most 100 %); nullopt for anything else.
std::optional<DisruptionBudget> parseBudgetValue(std::string_view text);
// The budget's `Value` as the caller wrote it.
std::string formatBudgetValue(const DisruptionBudget& budget);

// A change that lowers CPU or memory — the risky direction — is a
// disruption. A missing key or "no limit" is the highest limit there is.
bool isDisruption(const Resources& before, const Resources& after);

// How many disruptions of one pool its budgets allow now for `reason`:
// the minimum over the budgets that apply, each its value less the
// disruptions it counts (`counted(budget)`: those of its reasons in its
// period). nullopt when no budget applies.
std::optional<uint64_t> allowedDisruptions(const std::vector<DisruptionBudget>& budgets, DisruptionReason reason,
                                           uint64_t members,
                                           const std::function<uint64_t(const DisruptionBudget&)>& counted);

}  // namespace resized::core
