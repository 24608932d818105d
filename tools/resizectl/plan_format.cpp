#include "plan_format.h"

#include <chrono>
#include <cstdint>

#include "plan_request.h"
#include "quantity_format.h"
#include "status_format.h"

namespace resized::ctl {

namespace {

std::vector<PlanChange> changesOf(const ListedPlan& plan)
{
    return lookup<std::vector<PlanChange>>(plan.properties, "Changes");
}

std::string idOf(const ListedPlan& plan)
{
    const auto id = find<uint64_t>(plan.properties, "Id");
    return id ? std::to_string(*id) : planIdOf(plan.objectPath);
}

// "-" for a plan not finished (0) or a time the daemon did not send.
std::string isoTimeOf(const ListedPlan& plan, const std::string& key)
{
    const uint64_t usec = lookup<uint64_t>(plan.properties, key);
    return usec == 0 ? "-" : formatIsoTimestamp(Clock::time_point(std::chrono::microseconds(usec)));
}

// The state as people should read it: a dry run "succeeds" without
// changing anything, so it must not read like an applied plan. The Plan
// interface has no DryRun property; the daemon's message says it.
std::string stateOf(const ListedPlan& plan)
{
    const std::string state = lookup<std::string>(plan.properties, "State", "-");
    if (state == "succeeded" && lookup<std::string>(plan.properties, "Message").starts_with("dry run:"))
        return "dry-run";
    return state;
}

// "rejected (capacity)"; "succeeded" without a reason.
std::string stateWithReason(const ListedPlan& plan)
{
    const std::string reason = lookup<std::string>(plan.properties, "Reason");
    const std::string state = stateOf(plan);
    return reason.empty() ? state : state + " (" + reason + ")";
}

}  // namespace

Table makePlanTable(const std::vector<ListedPlan>& plans)
{
    Table table({"ID", "STATE", "REASON", "SUBMITTED", "FINISHED", "CHANGES"});
    for (const auto& plan : plans) {
        const std::string reason = lookup<std::string>(plan.properties, "Reason");
        table.addRow({idOf(plan), stateOf(plan), reason.empty() ? "-" : reason,
                      isoTimeOf(plan, "SubmittedAtUSec"), isoTimeOf(plan, "FinishedAtUSec"),
                      std::to_string(changesOf(plan).size())});
    }
    return table;
}

std::string formatPlanBlock(const ListedPlan& plan, Clock::time_point now)
{
    std::vector<StatusField> fields{{"State", stateWithReason(plan)}};
    if (const std::string message = lookup<std::string>(plan.properties, "Message"); !message.empty())
        fields.emplace_back("Message", readableSizes(message));
    fields.emplace_back("Submitted", formatTimestamp(lookup<uint64_t>(plan.properties, "SubmittedAtUSec"), now));
    fields.emplace_back("Finished", formatTimestamp(lookup<uint64_t>(plan.properties, "FinishedAtUSec"), now));
    std::string changes;
    for (const auto& change : changesOf(plan))
        changes += (changes.empty() ? "" : "\n") + change.get<0>() + ": " + describeResources(change.get<1>());
    fields.emplace_back("Changes", changes.empty() ? "none" : changes);
    return formatFieldBlock("plan " + idOf(plan), fields);
}

}  // namespace resized::ctl
