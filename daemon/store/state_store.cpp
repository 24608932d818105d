#include "store/state_store.h"

#include <algorithm>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "store/json_resources.h"
#include "store/migrations.h"

namespace resized::store {
namespace {

constexpr std::string_view kWorkloadColumns =
    "name, container_id, cgroup_path, driver, run_state, desired, actuated, actual, "
    "allocated_cpu_millis, allocated_memory, sync_state, update_state, message, generation, "
    "observed_generation, updated_at_usec, pod, kind, removed_at_usec, holds_allocation, pool_chosen, "
    "pool_option, pool_label, exclusive_cpus_granted";

// The pool a workload's row says it is in (WorkloadRecord::pool()).
constexpr std::string_view kPoolOfRow = "CASE WHEN pool_chosen THEN pool_option ELSE pool_label END";

// What the rows holding an allocation count of `column` in a budget
// (design.md §1b, pod budgets): a pod member's limit of a resource its pod
// holds a limit of is inside the pod's, and not counted again. In a pool,
// only a pod of the same pool covers it: a pod in another pool (or none)
// is not counted there. One lookup by primary key per pod member; a plain
// SUM for the rest.
std::string sumOutsideHeldPods(std::string_view column, bool inPool)
{
    const std::string name(column);
    const std::string samePool =
        inPool ? " AND CASE WHEN p.pool_chosen THEN p.pool_option ELSE p.pool_label END = "
                 "CASE WHEN workloads.pool_chosen THEN workloads.pool_option ELSE workloads.pool_label END"
               : "";
    return "COALESCE(SUM(CASE WHEN pod <> '' AND EXISTS (SELECT 1 FROM workloads p WHERE p.name = 'pod:' || "
           "workloads.pod AND p.holds_allocation AND p." +
           name + " > 0" + samePool + ") THEN 0 ELSE " + name + " END), 0)";
}

// CPU and memory, as readAmounts() takes them, on the node or in a pool.
const std::string& allocationOutsideHeldPods(bool inPool)
{
    const auto columns = [](bool pool) {
        return sumOutsideHeldPods("allocated_cpu_millis", pool) + ", " + sumOutsideHeldPods("allocated_memory", pool);
    };
    static const std::string onNode = columns(false);
    static const std::string inPools = columns(true);
    return inPool ? inPools : onNode;
}

WorkloadRecord readWorkload(const Statement& row)
{
    WorkloadRecord record;
    record.name = row.text(0);
    record.containerId = row.text(1);
    record.cgroupPath = row.text(2);
    record.driver = row.text(3);
    record.runState = core::parseRunState(row.text(4)).value_or(core::RunState::Unknown);
    record.desired = resourcesFromJson(row.text(5));
    record.actuated = resourcesFromJson(row.text(6));
    record.actual = resourcesFromJson(row.text(7));
    record.allocated = {row.unsignedInteger(8), row.unsignedInteger(9)};
    record.syncState = core::parseSyncState(row.text(10)).value_or(core::SyncState::Unknown);
    record.updateState = core::parseUpdateState(row.text(11)).value_or(core::UpdateState::Unknown);
    record.message = row.text(12);
    record.generation = row.unsignedInteger(13);
    record.observedGeneration = row.unsignedInteger(14);
    record.updatedAtUsec = row.unsignedInteger(15);
    record.pod = row.text(16);
    record.kind = core::parseWorkloadKind(row.text(17)).value_or(core::WorkloadKind::Container);
    record.removedAtUsec = row.unsignedInteger(18);
    record.holdsAllocation = row.integer(19) != 0;
    if (row.integer(20) != 0)
        record.poolOption = row.text(21);
    record.poolLabel = row.text(22);
    record.exclusiveCpusGranted = core::parseCpuSet(row.text(23)).value_or(core::CpuSet{});
    return record;
}

std::string budgetsToJson(const std::vector<core::DisruptionBudget>& budgets)
{
    nlohmann::json array = nlohmann::json::array();
    for (const auto& budget : budgets) {
        nlohmann::json reasons = nlohmann::json::array();
        for (const auto reason : budget.reasons)
            reasons.push_back(core::toString(reason));
        nlohmann::json entry{{"value", core::formatBudgetValue(budget)},
                             {"period_usec", budget.periodUsec},
                             {"reasons", std::move(reasons)}};
        if (budget.window) {
            entry["schedule"] = budget.window->schedule.text();
            entry["duration_usec"] = budget.window->durationUsec;
            entry["time_zone"] = budget.window->timeZone;
        }
        array.push_back(std::move(entry));
    }
    return array.dump();
}

std::vector<core::DisruptionBudget> budgetsFromJson(const std::string& text)
{
    try {
        std::vector<core::DisruptionBudget> budgets;
        for (const auto& entry : nlohmann::json::parse(text)) {
            auto budget = core::parseBudgetValue(entry.at("value").get<std::string>());
            if (!budget)
                throw StoreError("a stored disruption budget has the value " + entry.at("value").dump());
            budget->periodUsec = entry.at("period_usec").get<uint64_t>();
            for (const auto& name : entry.at("reasons")) {
                const auto reason = core::parseDisruptionReason(name.get<std::string>());
                if (!reason)
                    throw StoreError("a stored disruption budget has the reason " + name.dump());
                budget->reasons.insert(*reason);
            }
            if (entry.contains("schedule"))
                budget->window = core::DisruptionBudget::Window{
                    .schedule = core::CronSchedule::parse(entry.at("schedule").get<std::string>()),
                    .durationUsec = entry.at("duration_usec").get<uint64_t>(),
                    .timeZone = entry.at("time_zone").get<std::string>(),
                };
            budgets.push_back(std::move(*budget));
        }
        return budgets;
    } catch (const nlohmann::json::exception& error) {
        throw StoreError(std::string("a pool's stored disruption budgets cannot be read: ") + error.what());
    } catch (const std::invalid_argument& error) {
        throw StoreError(std::string("a pool's stored disruption budget has a bad window: ") + error.what());
    }
}

constexpr std::string_view kPoolColumns = "name, cpu_millis, memory, budgets, declared_in";

// A row of kPoolColumns.
PoolRecord readPool(const Statement& row)
{
    return {row.text(0), {row.unsignedInteger(1), row.unsignedInteger(2)}, budgetsFromJson(row.text(3)), row.text(4)};
}

core::Amounts readAmounts(Statement&& query)
{
    query.step();
    return {query.unsignedInteger(0), query.unsignedInteger(1)};
}

constexpr std::string_view kReservationColumns =
    "id, workload, cpu_millis, memory, target, previous_desired, previous_actual, created_at_usec, plan_id";

std::vector<Reservation> reservationsFrom(Statement& query)
{
    std::vector<Reservation> result;
    while (query.step()) {
        result.push_back({
            .id = query.integer(0),
            .workload = query.text(1),
            .amounts = {query.unsignedInteger(2), query.unsignedInteger(3)},
            .target = resourcesFromJson(query.text(4)),
            .previousDesired = resourcesFromJson(query.text(5)),
            .previousActual = resourcesFromJson(query.text(6)),
            .createdAtUsec = query.unsignedInteger(7),
            .planId = query.integer(8),
        });
    }
    return result;
}

}  // namespace

StateStore::StateStore(const std::filesystem::path& file, size_t historyLimit)
    : db_(file), historyLimit_(std::min(historyLimit, kMaxHistoryLimit))
{
    migrate(db_);
}

std::optional<WorkloadRecord> StateStore::find(const std::string& name)
{
    Statement query(db_, "SELECT " + std::string(kWorkloadColumns) + " FROM workloads WHERE name = ?");
    query.bind(1, name);
    if (!query.step())
        return std::nullopt;
    return readWorkload(query);
}

std::optional<WorkloadRecord> StateStore::findByContainerId(const std::string& id)
{
    Statement query(db_, "SELECT " + std::string(kWorkloadColumns) +
                             " FROM workloads WHERE kind = 'container' AND container_id = ?");
    query.bind(1, id);
    if (!query.step())
        return std::nullopt;
    return readWorkload(query);
}

std::vector<WorkloadRecord> StateStore::workloads()
{
    Statement query(db_, "SELECT " + std::string(kWorkloadColumns) + " FROM workloads ORDER BY name");
    std::vector<WorkloadRecord> records;
    while (query.step())
        records.push_back(readWorkload(query));
    return records;
}

// An upsert, not INSERT OR REPLACE: a replace deletes the row first, and
// with it, through ON DELETE CASCADE, the workload's live reservations.
void StateStore::save(const WorkloadRecord& record)
{
    Statement upsert(db_, "INSERT INTO workloads (" + std::string(kWorkloadColumns) +
                              ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                              "ON CONFLICT(name) DO UPDATE SET container_id = excluded.container_id, "
                              "cgroup_path = excluded.cgroup_path, driver = excluded.driver, "
                              "run_state = excluded.run_state, desired = excluded.desired, "
                              "actuated = excluded.actuated, actual = excluded.actual, "
                              "allocated_cpu_millis = excluded.allocated_cpu_millis, "
                              "allocated_memory = excluded.allocated_memory, "
                              "sync_state = excluded.sync_state, update_state = excluded.update_state, "
                              "message = excluded.message, generation = excluded.generation, "
                              "observed_generation = excluded.observed_generation, "
                              "updated_at_usec = excluded.updated_at_usec, pod = excluded.pod, "
                              "kind = excluded.kind, removed_at_usec = excluded.removed_at_usec, "
                              "holds_allocation = excluded.holds_allocation, "
                              "pool_chosen = excluded.pool_chosen, pool_option = excluded.pool_option, "
                              "pool_label = excluded.pool_label, "
                              "exclusive_cpus_granted = excluded.exclusive_cpus_granted");
    upsert.bind(1, record.name)
        .bind(2, record.containerId)
        .bind(3, record.cgroupPath)
        .bind(4, record.driver)
        .bind(5, core::toString(record.runState))
        .bind(6, toJson(record.desired))
        .bind(7, toJson(record.actuated))
        .bind(8, toJson(record.actual))
        .bind(9, record.allocated.cpuMillis)
        .bind(10, record.allocated.memory)
        .bind(11, core::toString(record.syncState))
        .bind(12, core::toString(record.updateState))
        .bind(13, record.message)
        .bind(14, record.generation)
        .bind(15, record.observedGeneration)
        .bind(16, record.updatedAtUsec)
        .bind(17, record.pod)
        .bind(18, core::toString(record.kind))
        .bind(19, record.removedAtUsec)
        .bind(20, int64_t{record.holdsAllocation})
        .bind(21, int64_t{record.poolOption.has_value()})
        .bind(22, record.poolOption.value_or(""))
        .bind(23, record.poolLabel)
        .bind(24, core::formatCpuSet(record.exclusiveCpusGranted))
        .run();
}

// One transaction: a crash between the two deletes would leave the deferred
// update behind, and it brings the forgotten workload back.
void StateStore::remove(const std::string& name)
{
    WriteTransaction transaction(db_);
    Statement(db_, "DELETE FROM workloads WHERE name = ?").bind(1, name).run();
    removeDeferred(name);
    transaction.commit();
}

core::Amounts StateStore::allocatedOutsideHeldPods()
{
    return readAmounts(Statement(db_, "SELECT " + allocationOutsideHeldPods(false) +
                                          " FROM workloads WHERE holds_allocation"));
}

core::Amounts StateStore::poolAllocatedOutsideHeldPods(const std::string& pool)
{
    return readAmounts(std::move(Statement(db_, "SELECT " + allocationOutsideHeldPods(true) +
                                                    " FROM workloads WHERE holds_allocation AND " +
                                                    std::string(kPoolOfRow) + " = ?")
                                         .bind(1, pool)));
}

std::map<std::string, core::Amounts> StateStore::heldPodLimits()
{
    Statement query(db_, "SELECT substr(name, 5), allocated_cpu_millis, allocated_memory FROM workloads "
                         "WHERE kind = 'pod' AND holds_allocation");
    std::map<std::string, core::Amounts> limits;
    while (query.step())
        limits.emplace(query.text(0), core::Amounts{query.unsignedInteger(1), query.unsignedInteger(2)});
    return limits;
}

std::vector<HeldAllocation> StateStore::podMemberAllocations(const std::string& pod)
{
    Statement query(db_, "SELECT name, " + std::string(kPoolOfRow) +
                             ", allocated_cpu_millis, allocated_memory FROM workloads "
                             "WHERE pod = ? AND holds_allocation ORDER BY name");
    query.bind(1, pod);
    std::vector<HeldAllocation> members;
    while (query.step())
        members.push_back({query.text(0), query.text(1), {query.unsignedInteger(2), query.unsignedInteger(3)}});
    return members;
}

std::map<std::string, core::Slice> StateStore::heldSlices()
{
    // Held, or reserved by a change in flight (a workload that held nothing
    // before it): a slice counts from its admission. Two queries, each on
    // an index, rather than one OR that SQLite would scan.
    Statement query(db_, "SELECT name, desired, exclusive_cpus_granted, pod FROM workloads WHERE holds_allocation "
                         "AND json_extract(desired, '$.ExclusiveCpus') > 0 "
                         "UNION SELECT name, desired, exclusive_cpus_granted, pod FROM workloads "
                         "WHERE name IN (SELECT workload FROM reservations) "
                         "AND json_extract(desired, '$.ExclusiveCpus') > 0");
    std::map<std::string, core::Slice> slices;
    while (query.step()) {
        const core::Resources desired = resourcesFromJson(query.text(1));
        core::Slice slice{desired.allowedCpus.value_or(core::CpuSet{}), {}};
        // What a slice was first granted is part of it by construction; a
        // row edited by hand must not make every resize throw.
        slice.granted = core::intersection(core::parseCpuSet(query.text(2)).value_or(core::CpuSet{}), slice.cpus);
        slice.pod = query.text(3);
        slices.emplace(query.text(0), std::move(slice));
    }
    return slices;
}

std::optional<core::CpuSet> StateStore::narrowedCpuset(const std::string& cgroupPath)
{
    Statement query(db_, "SELECT cpus FROM narrowed_cpusets WHERE cgroup_path = ?");
    query.bind(1, cgroupPath);
    if (!query.step())
        return std::nullopt;
    return core::parseCpuSet(query.text(0)).value_or(core::CpuSet{});
}

void StateStore::saveNarrowedCpuset(const std::string& cgroupPath, const core::CpuSet& before)
{
    Statement(db_, "INSERT OR REPLACE INTO narrowed_cpusets (cgroup_path, cpus) VALUES (?, ?)")
        .bind(1, cgroupPath)
        .bind(2, core::formatCpuSet(before))
        .run();
}

void StateStore::removeNarrowedCpuset(const std::string& cgroupPath)
{
    Statement(db_, "DELETE FROM narrowed_cpusets WHERE cgroup_path = ?").bind(1, cgroupPath).run();
}

void StateStore::keepNarrowedCpusets(const std::set<std::string>& cgroupPaths)
{
    Statement query(db_, "SELECT cgroup_path FROM narrowed_cpusets");
    std::vector<std::string> gone;
    while (query.step())
        if (!cgroupPaths.contains(query.text(0)))
            gone.push_back(query.text(0));
    if (gone.empty())
        return;
    WriteTransaction transaction(db_);
    for (const auto& cgroupPath : gone)
        removeNarrowedCpuset(cgroupPath);
    transaction.commit();
}

bool StateStore::anyNarrowedCpuset()
{
    Statement query(db_, "SELECT 1 FROM narrowed_cpusets LIMIT 1");
    return query.step();
}

core::Amounts StateStore::reservedTotal()
{
    return readAmounts(Statement(db_, "SELECT COALESCE(SUM(cpu_millis), 0), "
                                      "COALESCE(SUM(memory), 0) FROM reservations"));
}

std::optional<PoolRecord> StateStore::findPool(const std::string& name)
{
    Statement query(db_, "SELECT " + std::string(kPoolColumns) + " FROM pools WHERE name = ?");
    query.bind(1, name);
    if (!query.step())
        return std::nullopt;
    return readPool(query);
}

std::vector<PoolRecord> StateStore::pools()
{
    Statement query(db_, "SELECT " + std::string(kPoolColumns) + " FROM pools ORDER BY name");
    std::vector<PoolRecord> result;
    while (query.step())
        result.push_back(readPool(query));
    return result;
}

void StateStore::savePool(const PoolRecord& pool)
{
    Statement(db_, "INSERT INTO pools (" + std::string(kPoolColumns) + ") VALUES (?, ?, ?, ?, ?) "
                   "ON CONFLICT(name) DO UPDATE SET cpu_millis = excluded.cpu_millis, memory = excluded.memory, "
                   "budgets = excluded.budgets, declared_in = excluded.declared_in")
        .bind(1, pool.name)
        .bind(2, pool.cap.cpuMillis)
        .bind(3, pool.cap.memory)
        .bind(4, budgetsToJson(pool.budgets))
        .bind(5, pool.declaredIn)
        .run();
}

bool StateStore::removePool(const std::string& name)
{
    WriteTransaction transaction(db_);
    Statement(db_, "DELETE FROM pools WHERE name = ?").bind(1, name).run();
    const bool removed = db_.changes() > 0;
    Statement(db_, "UPDATE workloads SET pool_chosen = 0, pool_option = '' WHERE pool_chosen AND pool_option = ?")
        .bind(1, name)
        .run();
    transaction.commit();
    return removed;
}

std::vector<std::string> StateStore::poolMembers(const std::string& pool)
{
    Statement query(db_, "SELECT name FROM workloads WHERE " + std::string(kPoolOfRow) + " = ? ORDER BY name");
    query.bind(1, pool);
    std::vector<std::string> names;
    while (query.step())
        names.push_back(query.text(0));
    return names;
}

core::Amounts StateStore::poolReserved(const std::string& pool)
{
    return readAmounts(std::move(Statement(db_, "SELECT COALESCE(SUM(r.cpu_millis), 0), COALESCE(SUM(r.memory), 0) "
                                                "FROM reservations r JOIN workloads w ON w.name = r.workload "
                                                "WHERE " +
                                                    std::string(kPoolOfRow) + " = ?")
                                         .bind(1, pool)));
}

void StateStore::recordDisruption(const Disruption& disruption)
{
    WriteTransaction transaction(db_);
    Statement(db_, "INSERT INTO disruptions (pool, workload, reason, at_usec, reservation_id) VALUES (?, ?, ?, ?, ?)")
        .bind(1, disruption.pool)
        .bind(2, disruption.workload)
        .bind(3, core::toString(disruption.reason))
        .bind(4, disruption.atUsec)
        .bind(5, disruption.reservationId)
        .run();
    const uint64_t oldest = disruption.atUsec > kDisruptionRetentionUsec ? disruption.atUsec - kDisruptionRetentionUsec : 0;
    Statement(db_, "DELETE FROM disruptions WHERE at_usec < ?").bind(1, oldest).run();
    transaction.commit();
}

void StateStore::removeDisruptionsOf(int64_t reservationId)
{
    Statement(db_, "DELETE FROM disruptions WHERE reservation_id = ?").bind(1, reservationId).run();
}

uint64_t StateStore::countDisruptions(const std::string& pool, const core::DisruptionBudget& budget, uint64_t nowUsec)
{
    std::string sql = "SELECT COUNT(*) FROM disruptions d WHERE d.pool = ?";
    if (budget.periodUsec == 0)
        sql += " AND EXISTS (SELECT 1 FROM reservations r WHERE r.id = d.reservation_id)";
    else
        sql += " AND d.at_usec >= ?";
    if (!budget.reasons.empty()) {
        sql += " AND d.reason IN (";
        for (size_t i = 0; i < budget.reasons.size(); ++i)
            sql += i == 0 ? "?" : ", ?";
        sql += ")";
    }
    Statement query(db_, sql);
    int index = 1;
    query.bind(index++, pool);
    if (budget.periodUsec != 0)
        query.bind(index++, nowUsec > budget.periodUsec ? nowUsec - budget.periodUsec : uint64_t{0});
    for (const auto reason : budget.reasons)
        query.bind(index++, core::toString(reason));
    query.step();
    return query.unsignedInteger(0);
}

std::optional<uint64_t> StateStore::firstDisruptionSince(const std::string& pool, uint64_t sinceUsec)
{
    Statement query(db_, "SELECT at_usec FROM disruptions WHERE pool = ? AND at_usec >= ? ORDER BY at_usec LIMIT 1");
    query.bind(1, pool).bind(2, sinceUsec);
    if (!query.step())
        return std::nullopt;
    return query.unsignedInteger(0);
}

int64_t StateStore::addReservation(const Reservation& reservation)
{
    Statement(db_, "INSERT INTO reservations (workload, cpu_millis, memory, target, "
                   "previous_desired, previous_actual, created_at_usec, plan_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
        .bind(1, reservation.workload)
        .bind(2, reservation.amounts.cpuMillis)
        .bind(3, reservation.amounts.memory)
        .bind(4, toJson(reservation.target))
        .bind(5, toJson(reservation.previousDesired))
        .bind(6, toJson(reservation.previousActual))
        .bind(7, reservation.createdAtUsec)
        .bind(8, reservation.planId)
        .run();
    return db_.lastInsertId();
}

void StateStore::removeReservation(int64_t id)
{
    Statement(db_, "DELETE FROM reservations WHERE id = ?").bind(1, id).run();
}

std::vector<Reservation> StateStore::reservations()
{
    Statement query(db_, "SELECT " + std::string(kReservationColumns) + " FROM reservations ORDER BY id");
    return reservationsFrom(query);
}

std::vector<Reservation> StateStore::reservationsOfPlan(int64_t planId)
{
    Statement query(db_, "SELECT " + std::string(kReservationColumns) +
                         " FROM reservations WHERE plan_id = ? ORDER BY id");
    query.bind(1, planId);
    return reservationsFrom(query);
}

void StateStore::deferUpdate(const DeferredUpdate& update)
{
    Statement(db_, "INSERT OR REPLACE INTO deferred_updates (workload, request, force, "
                   "reclaim_timeout_usec, caller_uid, created_at_usec, actor, pool_chosen, pool_option) "
                   "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")
        .bind(1, update.workload)
        .bind(2, toJson(update.request))
        .bind(3, int64_t{update.force})
        .bind(4, update.reclaimTimeoutUsec ? static_cast<int64_t>(*update.reclaimTimeoutUsec) : int64_t{-1})
        .bind(5, int64_t{update.callerUid})
        .bind(6, update.createdAtUsec)
        .bind(7, update.actor)
        .bind(8, int64_t{update.pool.has_value()})
        .bind(9, update.pool.value_or(""))
        .run();
}

void StateStore::removeDeferred(const std::string& workload)
{
    Statement(db_, "DELETE FROM deferred_updates WHERE workload = ?").bind(1, workload).run();
}

bool StateStore::removeDeferred(const std::string& workload, const std::string& actor)
{
    Statement(db_, "DELETE FROM deferred_updates WHERE workload = ? AND actor = ?").bind(1, workload).bind(2, actor).run();
    return db_.changes() > 0;
}

std::vector<DeferredUpdate> StateStore::deferredUpdates()
{
    Statement query(db_, "SELECT id, workload, request, force, reclaim_timeout_usec, caller_uid, "
                         "created_at_usec, actor, pool_chosen, pool_option FROM deferred_updates ORDER BY id");
    std::vector<DeferredUpdate> updates;
    while (query.step()) {
        const int64_t timeout = query.integer(4);
        updates.push_back({
            .id = query.integer(0),
            .workload = query.text(1),
            .request = resourcesFromJson(query.text(2)),
            .force = query.integer(3) != 0,
            .reclaimTimeoutUsec = timeout < 0 ? std::nullopt : std::optional<uint64_t>(timeout),
            .callerUid = static_cast<uint32_t>(query.integer(5)),
            .createdAtUsec = query.unsignedInteger(6),
            .actor = query.text(7),
            .pool = query.integer(8) != 0 ? std::optional<std::string>(query.text(9)) : std::nullopt,
        });
    }
    return updates;
}

void StateStore::recordHistory(const HistoryEntry& entry)
{
    WriteTransaction transaction(db_);
    Statement(db_, "INSERT INTO history (workload, caller_uid, operation, request, result, "
                   "message, started_at_usec, finished_at_usec, actor) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")
        .bind(1, entry.workload)
        .bind(2, int64_t{entry.callerUid})
        .bind(3, entry.operation)
        .bind(4, entry.request)
        .bind(5, entry.result)
        .bind(6, entry.message)
        .bind(7, entry.startedAtUsec)
        .bind(8, entry.finishedAtUsec)
        .bind(9, entry.actor)
        .run();
    Statement(db_, "DELETE FROM history WHERE id <= (SELECT MAX(id) FROM history) - ?")
        .bind(1, static_cast<int64_t>(historyLimit_))
        .run();
    transaction.commit();
}

std::vector<HistoryEntry> StateStore::history(const std::string& workload, size_t limit)
{
    Statement query(db_, "SELECT workload, caller_uid, operation, request, result, message, "
                         "started_at_usec, finished_at_usec, actor FROM history WHERE ? = '' OR workload = ? "
                         "ORDER BY id DESC LIMIT ?");
    query.bind(1, workload).bind(2, workload).bind(3, static_cast<int64_t>(std::min(limit, kMaxHistoryLimit)));
    std::vector<HistoryEntry> entries;
    while (query.step()) {
        entries.push_back({
            .workload = query.text(0),
            .actor = query.text(8),
            .callerUid = static_cast<uint32_t>(query.integer(1)),
            .operation = query.text(2),
            .request = query.text(3),
            .result = query.text(4),
            .message = query.text(5),
            .startedAtUsec = query.unsignedInteger(6),
            .finishedAtUsec = query.unsignedInteger(7),
        });
    }
    return entries;
}

}  // namespace resized::store
