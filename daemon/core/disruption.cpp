#include "core/disruption.h"

#include <algorithm>
#include <charconv>

namespace resized::core {
namespace {

// Unlimited and missing both mean "as high as it goes".
uint64_t ceilingOf(const std::optional<uint64_t>& limit) { return limit.value_or(kUnlimited); }

}  // namespace

std::optional<DisruptionBudget> parseBudgetValue(std::string_view text)
{
    DisruptionBudget budget;
    if (text.ends_with('%')) {
        budget.percent = true;
        text.remove_suffix(1);
    }
    if (text.empty())
        return std::nullopt;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), budget.value);
    if (error != std::errc() || end != text.data() + text.size() || (budget.percent && budget.value > 100))
        return std::nullopt;
    return budget;
}

std::string formatBudgetValue(const DisruptionBudget& budget)
{
    return std::to_string(budget.value) + (budget.percent ? "%" : "");
}

bool isDisruption(const Resources& before, const Resources& after)
{
    return ceilingOf(after.cpuMillis) < ceilingOf(before.cpuMillis) ||
           ceilingOf(after.memoryMax) < ceilingOf(before.memoryMax);
}

std::optional<uint64_t> allowedDisruptions(const std::vector<DisruptionBudget>& budgets, DisruptionReason reason,
                                           uint64_t members,
                                           const std::function<uint64_t(const DisruptionBudget&)>& counted)
{
    std::optional<uint64_t> allowed;
    for (const auto& budget : budgets) {
        if (!budget.appliesTo(reason))
            continue;
        const uint64_t limit = budget.percent ? (budget.value * members + 99) / 100 : budget.value;
        const uint64_t used = counted(budget);
        const uint64_t left = limit > used ? limit - used : 0;
        allowed = std::min(allowed.value_or(left), left);
    }
    return allowed;
}

}  // namespace resized::core
