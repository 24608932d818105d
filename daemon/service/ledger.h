#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/admission.h"
#include "core/cpuset.h"
#include "core/disruption.h"
#include "core/pod_budget.h"
#include "core/resources.h"
#include "core/workload_name.h"
#include "store/state_store.h"

namespace resized::service {

// What admission needs to know of one change, whoever asks: a caller of
// UpdateResources or ValidateResourceUpdate, the deferred queue, a
// re-admission after a workload's allocation was released.
struct AdmissionQuestion {
    std::string workload;
    core::WorkloadKind kind = core::WorkloadKind::Container;
    // The pod of a container ("" for none): its limit holds the container's.
    std::string pod{};
    // What the workload counts in the budget now, and would count after.
    core::Amounts held;
    core::Amounts wanted;
    // The cpuset asked for, if any ("" = all).
    std::optional<core::CpuSet> allowedCpus;
    // The CPUs the workload's parent cgroup allows, when it has a cgroup.
    std::optional<core::CpuSet> parentCpus;
    // The pool the workload is in after the change ("" for none), and
    // whether `held` already counts in that pool's allocation.
    std::string pool;
    bool countedInPool = false;
    // Whether the change lowers CPU or memory, why, and when it is asked:
    // the pool's disruption budgets count it.
    bool disruption = false;
    core::DisruptionReason reason = core::DisruptionReason::Manual;
    uint64_t nowUsec = 0;
    // Whether `wanted` holds an exclusive slice (ExclusiveCpus).
    bool exclusiveCpus = false;
    // Why the change cannot be made whatever the budgets hold (the CPU
    // manager's refusal); nullopt when it can.
    std::optional<std::string> infeasible{};
};

// What the pool's disruption budgets allow now for `reason` (design.md
// §1b): nullopt when no budget applies, or none is in force (outside its
// window).
std::optional<uint64_t> allowedDisruptions(store::StateStore& store, const store::PoolRecord& pool,
                                           core::DisruptionReason reason, uint64_t nowUsec);

// A plan's changes admitted as one (Ledger::assessPlan).
struct PlanAdmission {
    // The verdict, and the reason of the level that refused.
    core::AdmissionDecision decision;
    // What each change reserves while the plan is in flight, in the order
    // of the questions; empty unless admitted.
    std::vector<core::Amounts> reservations;
};

// A workload with a cgroup and no allocation held by resized (a container
// it does not manage, or one whose allocation was released), at what its
// cgroup holds, in the pool it names (its label; "" for none) and the pod
// it is a member of ("" for none).
struct UnheldWorkload {
    core::Amounts amounts;
    std::string pool;
    std::string pod{};

    bool operator==(const UnheldWorkload&) const = default;
};

// The node's budget (design.md §1: available = capacity − allocated −
// reserved) and the one admission decision. Allocated is the sum of the
// allocations the store holds plus, for every workload with a cgroup that
// resized holds nothing for, what its cgroup holds now. Admission is
// hierarchical (design.md §1b): the node, then the workload's pool, whose
// allocation is counted the same way, over its members and the unheld
// workloads that name it. Before both comes the pod level (design.md §1b,
// pod budgets): a pod with a limit counts its limit, and its members'
// limits of the same resource must fit inside it and are not counted again.
class Ledger {
public:
    Ledger(store::StateStore& store, core::Amounts capacity, core::CpuSet nodeCpus);

    core::NodeBudget budget();
    // The limits of `pod`'s members (a Podman pod's name) as the budget
    // counts them: the managed ones' allocations, the others' cgroups.
    std::vector<core::PodMemberLimit> podMemberLimits(const std::string& pod);
    // The pool's budget: its cap, what its members hold and reserve, with
    // the unheld workloads that name it at what their cgroups hold, as the
    // node counts them.
    core::NodeBudget poolBudget(const store::PoolRecord& pool);
    // What resized itself has admitted on the node (nullptr) or in the
    // pool: the allocations held, less what the limits of unheld pods
    // cover; what the unheld workloads hold is left out.
    core::Amounts admittedIn(const std::string* pool);
    const core::Amounts& capacity() const { return capacity_; }
    const core::CpuSet& nodeCpus() const { return nodeCpus_; }
    void setCapacity(const core::Amounts& capacity) { capacity_ = capacity; }

    // The decision, with nothing changed. Called inside the write transaction
    // that takes the reservation, it cannot be overtaken.
    core::AdmissionDecision assess(const AdmissionQuestion& asked);
    // The decision for several changes applied as one (design.md §1b,
    // plans): each must be feasible alone, and the node and every pool
    // must have room for their sum net of the plan's own decreases. While
    // the plan is in flight, a decrease still holds what it held, so the
    // increases reserve only what the decreases of their own pool (or of
    // the workloads in none) do not cover.
    PlanAdmission assessPlan(const std::vector<AdmissionQuestion>& asked);

    // Counted on the node and in their pools. Returns whether the figures
    // changed.
    bool countUnheld(const std::string& workload, const UnheldWorkload& unheld);
    bool dropUnheld(const std::string& workload);
    bool replaceUnheld(std::map<std::string, UnheldWorkload> unheld);
    std::optional<UnheldWorkload> unheld(const std::string& workload) const;
    // The unheld workloads counted in `pool`, by name.
    std::vector<std::string> unheldIn(const std::string& pool) const;

private:
    // What a plan changes of pods and of their members (by pod, then
    // member): the limits after it. A member's change in a plan that changes
    // its pod too is counted in the pod's group.
    struct PlannedPods {
        std::map<std::string, core::Amounts> podLimits;
        std::map<std::string, std::map<std::string, core::Amounts>> members;
    };

    // The pod level: refuses a member's limit beyond its pod's, or a pod's
    // limit below a member's; otherwise turns the question into what the
    // node and the pool count (a member: nothing its pod covers; a pod: its
    // limit in place of its members' sum), with what `planned` changes.
    std::optional<core::AdmissionDecision> assessPodLevel(AdmissionQuestion& question, const PlannedPods& planned);
    // The CPU the slices of `pod`'s members hold, `except`'s aside.
    uint64_t memberSlicesMillis(const std::string& pod, const std::string& except);
    // The limits of the pods, held or unheld, by pod name: their members'
    // limits of the same resources are inside.
    std::map<std::string, core::Amounts> podLimits();
    // The pool pod `pod` counts in ("": none).
    std::string poolOfPod(const std::string& pod);
    // What the pool of `asked` counts of it: `podLevel`, the question as the
    // pod level turned it, where the workload's pod counts in the same
    // pool and covers it there; otherwise the workload's own amounts.
    const AdmissionQuestion& countedInItsPool(const AdmissionQuestion& asked, const AdmissionQuestion& podLevel);
    // What the node (nullptr) or the pool counts as allocated: what is held
    // and what the unheld workloads hold, but for what pods' limits cover.
    core::Amounts allocatedIn(const std::string* pool);
    // A cpuset the node, the workload's parent or the CPU manager cannot
    // give.
    std::optional<core::AdmissionDecision> refuseCpus(const AdmissionQuestion& question) const;
    // The pool's verdict on `questions`, all of its members.
    core::AdmissionDecision assessPool(const store::PoolRecord& pool,
                                       const std::vector<const AdmissionQuestion*>& questions);

    store::StateStore& store_;
    core::Amounts capacity_;
    core::CpuSet nodeCpus_;
    std::map<std::string, UnheldWorkload> unheld_;
};

}  // namespace resized::service
