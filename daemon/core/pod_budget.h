#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/admission.h"

namespace resized::core {

// Pod budgets (design.md §1b, the pod-level resources of Kubernetes): a pod
// with a limit of a resource is what the node allocates for it; each of its
// members' own limits of that resource must fit inside, and counts nothing
// more. A resource the pod does not limit (0 in `podLimit`, as
// allocationOf() counts "no limit") its members count one by one.

// `amounts` without what `podLimit` covers, and what it covers.
Amounts outsidePodLimit(const Amounts& amounts, const Amounts& podLimit);
Amounts insidePodLimit(const Amounts& amounts, const Amounts& podLimit);

// What a pod and its members count together: the pod's limit where it has
// one, the sum of its members' limits where it has none.
Amounts podGroupAllocation(const Amounts& podLimit, const Amounts& membersSum);

struct PodMemberLimit {
    std::string name;
    Amounts limit;
};

// An Infeasible decision naming the pod and the first member whose limit
// does not fit inside `podLimit`; nullopt when all fit.
std::optional<AdmissionDecision> refuseOutsidePod(const std::string& pod, const Amounts& podLimit,
                                                  const std::vector<PodMemberLimit>& members);

// Exclusive CPUs are never shared, so a pod's CPU limit caps the sum of its
// members' slices (TopologyScope=container) and not each alone, as it caps
// their limits: an Infeasible decision when `slicesMillis`, that sum, is
// more than the limit; nullopt otherwise or without one.
std::optional<AdmissionDecision> refuseSlicesOutsidePod(const std::string& pod, const Amounts& podLimit,
                                                        uint64_t slicesMillis);

}  // namespace resized::core
