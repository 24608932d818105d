#pragma once

#include <cstdint>
#include <filesystem>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/admission.h"
#include "core/cpu_slices.h"
#include "core/disruption.h"
#include "core/resources.h"
#include "core/states.h"
#include "core/workload_name.h"
#include "store/database.h"

namespace resized::store {

// Everything resized remembers about one workload.
struct WorkloadRecord {
    std::string name{};
    std::string containerId{};
    std::string cgroupPath{};
    std::string driver{};
    core::WorkloadKind kind = core::WorkloadKind::Container;
    std::string pod{};  // the Podman pod's name, empty when none
    core::RunState runState = core::RunState::Unknown;
    // When its container was seen removed (0 while it exists): the grace
    // for a re-creation under the same name runs from here.
    uint64_t removedAtUsec = 0;
    // Whether `allocated` counts in the node's budget: from admission until
    // it is forgotten or the removal grace has passed.
    bool holdsAllocation = false;
    core::Resources desired{};   // asked
    core::Resources actuated{};  // last written
    core::Resources actual{};    // last read back
    core::Amounts allocated{};   // admitted
    core::SyncState syncState = core::SyncState::Unknown;
    core::UpdateState updateState = core::UpdateState::Unknown;
    std::string message{};
    uint64_t generation = 0;
    uint64_t observedGeneration = 0;
    uint64_t updatedAtUsec = 0;
    // Pool membership (design.md §1b): the `Pool` option once given ("" for
    // none) wins over the container's io.resized1.pool label.
    std::optional<std::string> poolOption{};
    std::string poolLabel{};
    // The CPUs its exclusive slice was first granted (read only while
    // `desired` holds a slice).
    core::CpuSet exclusiveCpusGranted{};

    std::string pool() const { return poolOption.value_or(poolLabel); }

    // Running and paused workloads have a cgroup to read and write.
    bool hasCgroup() const
    {
        return (runState == core::RunState::Running || runState == core::RunState::Paused) &&
               !cgroupPath.empty();
    }

    bool operator==(const WorkloadRecord&) const = default;
};

// A workload and the allocation it holds, in the pool it counts in.
struct HeldAllocation {
    std::string workload;
    std::string pool;
    core::Amounts amounts;

    bool operator==(const HeldAllocation&) const = default;
};

// Capacity held by one update in flight, with what is needed to finish or
// undo it after a crash.
struct Reservation {
    int64_t id = 0;
    std::string workload{};
    core::Amounts amounts{};
    core::Resources target{};
    core::Resources previousDesired{};
    core::Resources previousActual{};
    uint64_t createdAtUsec = 0;
    // The plan it is a change of (0: a single update).
    int64_t planId = 0;
};

// An update asked with Defer=true, waiting for capacity.
struct DeferredUpdate {
    int64_t id = 0;
    std::string workload{};
    core::Resources request{};
    bool force = false;
    std::optional<uint64_t> reclaimTimeoutUsec{};
    uint32_t callerUid = 0;
    uint64_t createdAtUsec = 0;
    // As HistoryEntry::actor.
    std::string actor{};
    // Its `Pool` option, if it had one.
    std::optional<std::string> pool{};
};

// A pool: a cap on the sum of its members' allocations (kUnlimited: none),
// and how many of them may be lowered at once.
struct PoolRecord {
    std::string name{};
    core::Amounts cap{core::kUnlimited, core::kUnlimited};
    std::vector<core::DisruptionBudget> budgets{};
    // The configuration file that declares the pool; empty for a pool set
    // over D-Bus.
    std::string declaredIn{};

    bool operator==(const PoolRecord&) const = default;
};

// A change that lowered a pool member, as its pool's budgets count it.
struct Disruption {
    std::string pool{};
    std::string workload{};
    core::DisruptionReason reason = core::DisruptionReason::Manual;
    uint64_t atUsec = 0;
    // The update's reservation, 0 for one with none (a stopped workload).
    int64_t reservationId = 0;
};

// How long disruptions are kept: the longest period a budget may have.
inline constexpr uint64_t kDisruptionRetentionUsec = 7ull * 24 * 3600 * 1'000'000;

struct HistoryEntry {
    std::string workload{};
    // "uid:N" for a caller (whose uid callerUid is), "reconcile" or "hook"
    // for resized's own repairs.
    std::string actor{};
    uint32_t callerUid = 0;
    std::string operation{};  // "update", "forget", ...
    std::string request{};    // JSON
    std::string result{};     // "success" or the D-Bus error name
    std::string message{};
    uint64_t startedAtUsec = 0;
    uint64_t finishedAtUsec = 0;
};

// The most history entries a store keeps: SQLite counts rows in signed 64
// bits. A larger limit means the same, keep them all.
inline constexpr size_t kMaxHistoryLimit = std::numeric_limits<int64_t>::max();

// The SQLite state file. Every method is one statement, or one transaction
// (a part of the caller's when it holds one); callers that need several
// methods to be atomic together hold a WriteTransaction on database() around
// them.
class StateStore {
public:
    // Opens (creating if needed) and migrates the file. Keeps the newest
    // historyLimit history entries (at most kMaxHistoryLimit).
    explicit StateStore(const std::filesystem::path& file, size_t historyLimit = 10'000);

    Database& database() { return db_; }

    std::optional<WorkloadRecord> find(const std::string& name);
    // The workload bound to the container with this full ID.
    std::optional<WorkloadRecord> findByContainerId(const std::string& id);
    std::vector<WorkloadRecord> workloads();
    void save(const WorkloadRecord& record);
    // The workload with its deferred update (its reservations go with it).
    void remove(const std::string& name);

    // The sum of the allocations held (WorkloadRecord::holdsAllocation) on
    // the node, or in one pool, but for the part of pod members' limits
    // their pods' held limits cover (design.md §1b, pod budgets); in a pool,
    // only a pod in the same pool covers its members.
    core::Amounts allocatedOutsideHeldPods();
    core::Amounts poolAllocatedOutsideHeldPods(const std::string& pool);
    // The limits of the pods holding an allocation, by pod name (without
    // the `pod:` prefix).
    std::map<std::string, core::Amounts> heldPodLimits();
    // The allocations the members of the pod hold.
    std::vector<HeldAllocation> podMemberAllocations(const std::string& pod);
    // The exclusive slices held (design.md §1b, CPU manager): every workload
    // holding an allocation, or reserving one for a change in flight, whose
    // desired state has ExclusiveCpus above 0, its slice being its desired
    // AllowedCpus.
    std::map<std::string, core::Slice> heldSlices();
    // The cpuset a container had before the CPU manager narrowed it off a
    // slice, by cgroup path (CpuManager::keepOnSharedPool).
    std::optional<core::CpuSet> narrowedCpuset(const std::string& cgroupPath);
    void saveNarrowedCpuset(const std::string& cgroupPath, const core::CpuSet& before);
    void removeNarrowedCpuset(const std::string& cgroupPath);
    // Forgets every narrowed cpuset but those of `cgroupPaths`, the
    // containers there are.
    void keepNarrowedCpusets(const std::set<std::string>& cgroupPaths);
    // Whether any cpuset narrowed for a slice is remembered still.
    bool anyNarrowedCpuset();
    core::Amounts reservedTotal();

    int64_t addReservation(const Reservation& reservation);
    void removeReservation(int64_t id);
    std::vector<Reservation> reservations();
    // The reservations a plan took, all of them or none (design.md §1b).
    std::vector<Reservation> reservationsOfPlan(int64_t planId);

    // Replaces any update already waiting for the same workload.
    void deferUpdate(const DeferredUpdate& update);
    void removeDeferred(const std::string& workload);
    // Only what `actor` deferred (as DeferredUpdate::actor); whether there
    // was any.
    bool removeDeferred(const std::string& workload, const std::string& actor);
    // Oldest first.
    std::vector<DeferredUpdate> deferredUpdates();

    std::optional<PoolRecord> findPool(const std::string& name);
    std::vector<PoolRecord> pools();
    void savePool(const PoolRecord& pool);
    // The pool, and the choice of it by its members (they leave it; a
    // label naming it names no pool until it is set again). False when
    // there was no such pool.
    bool removePool(const std::string& name);
    // The pool's members, by name.
    std::vector<std::string> poolMembers(const std::string& pool);
    // As reservedTotal(), for the members of one pool.
    core::Amounts poolReserved(const std::string& pool);

    // Also forgets those older than kDisruptionRetentionUsec.
    void recordDisruption(const Disruption& disruption);
    // Forgets the disruption of a change that was undone (its reservation).
    void removeDisruptionsOf(int64_t reservationId);
    // The pool's disruptions that `budget` counts: of its reasons, at or
    // after `nowUsec` less its period, or in flight for a period of 0.
    uint64_t countDisruptions(const std::string& pool, const core::DisruptionBudget& budget, uint64_t nowUsec);
    // When the pool's first disruption at or after `sinceUsec` was made.
    std::optional<uint64_t> firstDisruptionSince(const std::string& pool, uint64_t sinceUsec);

    void recordHistory(const HistoryEntry& entry);
    // Newest first, at most `limit`; "" for the entries of every workload.
    std::vector<HistoryEntry> history(const std::string& workload, size_t limit);

private:
    Database db_;
    size_t historyLimit_;
};

}  // namespace resized::store
