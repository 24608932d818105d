#include "store/plan_store.h"

#include <nlohmann/json.hpp>

#include "store/json_resources.h"

namespace resized::store {
namespace {

constexpr std::string_view kColumns =
    "id, state, reason, message, changes, containers, expected_generations, disruption_reason, dry_run, defer, "
    "caller_uid, submitted_at_usec, run_at_usec, finished_at_usec, force";

std::string changesToJson(const std::vector<PlanChange>& changes)
{
    auto array = nlohmann::json::array();
    for (const auto& change : changes)
        array.push_back({change.workload, nlohmann::json::parse(toJson(change.resources))});
    return array.dump();
}

// Throws StoreError for a row another program has damaged.
template <typename Value>
Value parseColumn(const std::string& text, const char* column, auto&& convert)
{
    try {
        return convert(nlohmann::json::parse(text));
    } catch (const nlohmann::json::exception& error) {
        throw StoreError(std::string("plans.") + column + " holds no valid value: " + error.what());
    }
}

template <typename Enum>
Enum parseEnum(std::optional<Enum> parsed, const std::string& text, const char* column)
{
    if (!parsed)
        throw StoreError(std::string("plans.") + column + " holds \"" + text + "\", which is none");
    return *parsed;
}

PlanRecord readPlan(const Statement& row)
{
    PlanRecord plan;
    plan.id = row.integer(0);
    plan.state = parseEnum(core::parsePlanState(row.text(1)), row.text(1), "state");
    plan.reason = parseEnum(core::parsePlanReason(row.text(2)), row.text(2), "reason");
    plan.message = row.text(3);
    plan.changes = parseColumn<std::vector<PlanChange>>(row.text(4), "changes", [](const nlohmann::json& array) {
        std::vector<PlanChange> changes;
        for (const auto& change : array)
            changes.push_back({change.at(0).get<std::string>(), resourcesFromJson(change.at(1).dump())});
        return changes;
    });
    plan.containers = parseColumn<std::map<std::string, std::string>>(
        row.text(5), "containers", [](const nlohmann::json& object) { return object.get<std::map<std::string, std::string>>(); });
    plan.expectedGenerations = parseColumn<std::map<std::string, uint64_t>>(
        row.text(6), "expected_generations",
        [](const nlohmann::json& object) { return object.get<std::map<std::string, uint64_t>>(); });
    plan.disruptionReason = parseEnum(core::parseDisruptionReason(row.text(7)), row.text(7), "disruption_reason");
    plan.dryRun = row.integer(8) != 0;
    plan.defer = row.integer(9) != 0;
    plan.callerUid = static_cast<uint32_t>(row.integer(10));
    plan.submittedAtUsec = row.unsignedInteger(11);
    plan.runAtUsec = row.unsignedInteger(12);
    plan.finishedAtUsec = row.unsignedInteger(13);
    plan.force = row.integer(14) != 0;
    return plan;
}

}  // namespace

int64_t PlanStore::add(const PlanRecord& plan)
{
    Statement(db_, "INSERT INTO plans (state, reason, message, changes, containers, expected_generations, "
                   "disruption_reason, dry_run, defer, caller_uid, submitted_at_usec, run_at_usec, finished_at_usec, force) "
                   "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
        .bind(1, core::toString(plan.state))
        .bind(2, core::toString(plan.reason))
        .bind(3, plan.message)
        .bind(4, changesToJson(plan.changes))
        .bind(5, nlohmann::json(plan.containers).dump())
        .bind(6, nlohmann::json(plan.expectedGenerations).dump())
        .bind(7, core::toString(plan.disruptionReason))
        .bind(8, int64_t{plan.dryRun})
        .bind(9, int64_t{plan.defer})
        .bind(10, int64_t{plan.callerUid})
        .bind(11, plan.submittedAtUsec)
        .bind(12, plan.runAtUsec)
        .bind(13, plan.finishedAtUsec)
        .bind(14, int64_t{plan.force})
        .run();
    return db_.lastInsertId();
}

void PlanStore::save(const PlanRecord& plan)
{
    Statement(db_, "UPDATE plans SET state = ?, reason = ?, message = ?, run_at_usec = ?, finished_at_usec = ? "
                   "WHERE id = ?")
        .bind(1, core::toString(plan.state))
        .bind(2, core::toString(plan.reason))
        .bind(3, plan.message)
        .bind(4, plan.runAtUsec)
        .bind(5, plan.finishedAtUsec)
        .bind(6, plan.id)
        .run();
}

std::optional<PlanRecord> PlanStore::find(int64_t id)
{
    Statement query(db_, "SELECT " + std::string(kColumns) + " FROM plans WHERE id = ?");
    query.bind(1, id);
    if (!query.step())
        return std::nullopt;
    return readPlan(query);
}

std::vector<PlanRecord> PlanStore::plans()
{
    Statement query(db_, "SELECT " + std::string(kColumns) + " FROM plans ORDER BY id");
    std::vector<PlanRecord> result;
    while (query.step())
        result.push_back(readPlan(query));
    return result;
}

std::vector<int64_t> PlanStore::removeFinishedBefore(uint64_t beforeUsec)
{
    WriteTransaction transaction(db_);
    Statement query(db_, "SELECT id FROM plans WHERE finished_at_usec != 0 AND finished_at_usec < ?");
    query.bind(1, beforeUsec);
    std::vector<int64_t> removed;
    while (query.step())
        removed.push_back(query.integer(0));
    Statement(db_, "DELETE FROM plans WHERE finished_at_usec != 0 AND finished_at_usec < ?").bind(1, beforeUsec).run();
    transaction.commit();
    return removed;
}

}  // namespace resized::store
