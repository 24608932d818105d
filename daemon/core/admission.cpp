#include "core/admission.h"

#include "core/quantity.h"

namespace resized::core {
namespace {

uint64_t saturatingSub(uint64_t a, uint64_t b) { return a > b ? a - b : 0; }

uint64_t countable(const std::optional<uint64_t>& limit)
{
    return limit && *limit != kUnlimited ? *limit : 0;
}

uint64_t saturatingAdd(uint64_t a, uint64_t b) { return a > kUnlimited - b ? kUnlimited : a + b; }

}  // namespace

Amounts operator+(const Amounts& a, const Amounts& b)
{
    return {saturatingAdd(a.cpuMillis, b.cpuMillis), saturatingAdd(a.memory, b.memory)};
}

Amounts operator-(const Amounts& a, const Amounts& b)
{
    return {saturatingSub(a.cpuMillis, b.cpuMillis), saturatingSub(a.memory, b.memory)};
}

Amounts NodeBudget::available() const
{
    return {
        saturatingSub(capacity.cpuMillis, saturatingAdd(allocated.cpuMillis, reserved.cpuMillis)),
        saturatingSub(capacity.memory, saturatingAdd(allocated.memory, reserved.memory)),
    };
}

Amounts allocationOf(const Resources& limits)
{
    // An exclusive slice has no quota: its CPUs are its allocation.
    if (limits.exclusiveCpus && *limits.exclusiveCpus > 0)
        return {*limits.exclusiveCpus * 1000, countable(limits.memoryMax)};
    return {countable(limits.cpuMillis), countable(limits.memoryMax)};
}

AdmissionDecision admit(const NodeBudget& budget, const Amounts& current, const Amounts& target,
                        const BudgetLevel& level)
{
    const bool isNode = level.name.empty();
    const std::string prefix = isNode ? "" : level.name + ": ";
    const std::string capacityName = isNode ? "this node's allocatable" : "its cap";
    const std::string where = isNode ? "on this node" : "in the pool";

    AdmissionDecision decision;
    if (target.cpuMillis > budget.capacity.cpuMillis) {
        decision.verdict = Verdict::Infeasible;
        decision.reason = prefix + "asked " + formatCpuMillis(target.cpuMillis) + " CPU, more than " +
                          capacityName + " " + formatCpuMillis(budget.capacity.cpuMillis);
        return decision;
    }
    if (target.memory > budget.capacity.memory) {
        decision.verdict = Verdict::Infeasible;
        decision.reason = prefix + "asked " + formatBytes(target.memory) + " memory, more than " +
                          capacityName + " " + formatBytes(budget.capacity.memory);
        return decision;
    }

    const Amounts available = budget.available();
    decision.reservation = {saturatingSub(target.cpuMillis, current.cpuMillis),
                            saturatingSub(target.memory, current.memory)};
    if (decision.reservation.cpuMillis > available.cpuMillis) {
        decision.verdict = Verdict::Insufficient;
        decision.reason = prefix + "asked " + formatCpuMillis(decision.reservation.cpuMillis) +
                          " more CPU, " + formatCpuMillis(available.cpuMillis) + " available " + where;
    } else if (decision.reservation.memory > available.memory) {
        decision.verdict = Verdict::Insufficient;
        decision.reason = prefix + "asked " + formatBytes(decision.reservation.memory) +
                          " more memory, " + formatBytes(available.memory) + " available " + where;
    }
    if (decision.verdict != Verdict::Admitted)
        decision.reservation = {};
    return decision;
}

}  // namespace resized::core
