#include "core/pod_budget.h"

#include "core/quantity.h"

namespace resized::core {

Amounts outsidePodLimit(const Amounts& amounts, const Amounts& podLimit)
{
    return {podLimit.cpuMillis > 0 ? 0 : amounts.cpuMillis, podLimit.memory > 0 ? 0 : amounts.memory};
}

Amounts insidePodLimit(const Amounts& amounts, const Amounts& podLimit)
{
    return amounts - outsidePodLimit(amounts, podLimit);
}

Amounts podGroupAllocation(const Amounts& podLimit, const Amounts& membersSum)
{
    return {podLimit.cpuMillis > 0 ? podLimit.cpuMillis : membersSum.cpuMillis,
            podLimit.memory > 0 ? podLimit.memory : membersSum.memory};
}

std::optional<AdmissionDecision> refuseOutsidePod(const std::string& pod, const Amounts& podLimit,
                                                  const std::vector<PodMemberLimit>& members)
{
    const auto refusal = [&](const PodMemberLimit& member, const std::string& limit, const std::string& podsLimit) {
        return AdmissionDecision{Verdict::Infeasible, {},
                                 "pod " + pod + ": " + member.name + "'s limit of " + limit +
                                     " is more than the pod's " + podsLimit};
    };
    for (const auto& member : members) {
        if (podLimit.cpuMillis > 0 && member.limit.cpuMillis > podLimit.cpuMillis)
            return refusal(member, formatCpuMillis(member.limit.cpuMillis) + " CPU",
                           formatCpuMillis(podLimit.cpuMillis) + " CPU");
        if (podLimit.memory > 0 && member.limit.memory > podLimit.memory)
            return refusal(member, formatBytes(member.limit.memory) + " memory",
                           formatBytes(podLimit.memory) + " memory");
    }
    return std::nullopt;
}

std::optional<AdmissionDecision> refuseSlicesOutsidePod(const std::string& pod, const Amounts& podLimit,
                                                        uint64_t slicesMillis)
{
    if (podLimit.cpuMillis == 0 || slicesMillis <= podLimit.cpuMillis)
        return std::nullopt;
    return AdmissionDecision{Verdict::Infeasible, {},
                             "pod " + pod + ": its members' exclusive CPUs, " + formatCpuMillis(slicesMillis) +
                                 " CPU in all, are more than the pod's " + formatCpuMillis(podLimit.cpuMillis) +
                                 " CPU"};
}

}  // namespace resized::core
