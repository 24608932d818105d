#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/resources.h"
#include "core/states.h"
#include "store/database.h"

namespace resized::store {

// One change of a plan: a workload (as the caller named it) and the limits
// it is to get.
struct PlanChange {
    std::string workload{};
    core::Resources resources{};

    bool operator==(const PlanChange&) const = default;
};

// A plan (design.md §1b) as the state file keeps it, from submission until
// it has been finished for a while.
struct PlanRecord {
    int64_t id = 0;
    core::PlanState state = core::PlanState::Pending;
    core::PlanReason reason = core::PlanReason::None;
    std::string message{};
    std::vector<PlanChange> changes{};
    // The container each workload had when the plan was submitted ("" for
    // none), by canonical name: another one at validation is churn.
    std::map<std::string, std::string> containers{};
    // The `ExpectedGenerations` option, by canonical name.
    std::map<std::string, uint64_t> expectedGenerations{};
    core::DisruptionReason disruptionReason = core::DisruptionReason::Plan;
    bool dryRun = false;
    bool defer = false;
    // Force, passed on to every change (a pod lowered with its members).
    bool force = false;
    uint32_t callerUid = 0;
    uint64_t submittedAtUsec = 0;
    uint64_t runAtUsec = 0;
    uint64_t finishedAtUsec = 0;

    bool finished() const { return state != core::PlanState::Pending && state != core::PlanState::Running; }
    bool operator==(const PlanRecord&) const = default;
};

// The plans in the state file.
class PlanStore {
public:
    explicit PlanStore(Database& db) : db_(db) {}

    // Returns the plan's new id.
    int64_t add(const PlanRecord& plan);
    // Its state, reason, message and times; its changes never change.
    void save(const PlanRecord& plan);
    std::optional<PlanRecord> find(int64_t id);
    // Oldest first.
    std::vector<PlanRecord> plans();
    // Removes the plans that finished before `beforeUsec`; returns their ids.
    std::vector<int64_t> removeFinishedBefore(uint64_t beforeUsec);

private:
    Database& db_;
};

}  // namespace resized::store
