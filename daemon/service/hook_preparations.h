#pragma once

#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <variant>
#include <vector>

#include "service/errors.h"
#include "service/event_sequence.h"
#include "service/reconciler.h"
#include "store/state_store.h"

namespace resized::service {

// The workload whose limits were written, "" when there was nothing to write.
using PrepareResult = std::variant<std::string, ResizeError>;
using PrepareCallback = std::function<void(PrepareResult)>;

// The OCI hook's requests: a container of a managed workload is being
// created, and its desired limits go into its cgroup before it runs its
// first instruction. Podman holds the container locked meanwhile, so
// nothing here asks Podman: the record and the process's cgroup say all.
class HookPreparations {
public:
    // Places a container resized does not manage where the CPU manager
    // wants it (CpuManager::keepOnSharedPool), calling the second argument
    // once it is; empty when there is nothing to place (no static policy).
    using PlaceUnmanaged = std::function<void(const Instance&, std::function<void()>)>;

    // `busy` says whether a change of a workload is in flight.
    HookPreparations(store::StateStore& store, Reconciler& reconciler, EventSequence& events,
                     std::function<bool(const std::string&)> busy, PlaceUnmanaged placeUnmanaged);

    // The container `id` (called `name`, "" when not known) is being
    // created and `pid` is its first process, already in its cgroup. One
    // resized does not manage is only placed on the CPU manager's shared
    // pool. Throws ResizeError for a bad argument.
    void prepare(const std::string& id, const std::string& name, pid_t pid, PrepareCallback done);

    // The change in flight of `workload` ended (applied when `applied`).
    void changeEnded(const std::string& workload, bool applied, const std::string& message);
    // Nothing is queued for `workload` any more: the newest creation that
    // waited for it is prepared.
    void workloadIdle(const std::string& workload);

    // Whether a stop Podman saw at `atUsec` is of a run of container `id`
    // before the one a hook has prepared since.
    bool stopOfEarlierRun(const std::string& workload, const std::string& id, uint64_t atUsec) const;
    // The workload's container stopped or went: no prepared run is pending.
    void runEnded(const std::string& workload) { hooked_.erase(workload); }

private:
    struct Creation {
        std::string id;
        std::string cgroupPath;
        PrepareCallback done;
    };
    // When a hook last reported the creation of a workload's container.
    struct HookedCreation {
        std::string id;
        uint64_t atUsec = 0;
    };

    void prepareCreation(const std::string& workload, Creation creation);
    void placeUnmanaged(const std::string& id, const std::string& name, pid_t pid, PrepareCallback done);
    // The cgroup of container `id`'s process `pid`; throws ResizeError when
    // the process is not in it.
    static std::string cgroupOfContainer(const std::string& id, pid_t pid);

    store::StateStore& store_;
    Reconciler& reconciler_;
    EventSequence& events_;
    std::function<bool(const std::string&)> busy_;
    PlaceUnmanaged placeUnmanaged_;
    // The hooks waiting for the repair in flight of a workload.
    std::map<std::string, std::vector<PrepareCallback>> waitingForRepair_;
    // The hooks that came while a change of their workload was in flight.
    std::map<std::string, std::vector<Creation>> waitingForChange_;
    std::map<std::string, HookedCreation> hooked_;
};

}  // namespace resized::service
