#pragma once

#include <chrono>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "cgroup/driver_selector.h"
#include "core/resources.h"
#include "service/ledger.h"
#include "service/workload_source.h"
#include "store/state_store.h"

namespace resized::service {

// The workloads with a cgroup that resized holds no allocation for: every
// container it does not manage, and managed ones whose allocation was
// released. They count in the ledger at what their cgroups hold, on the node
// and in the pool they name (design.md §1b: a label makes a member), and a
// `podman update` by hand tells no one, so the cgroups are read again
// before a decision. Each change of the ledger's figure is reported by the
// return value: the caller announces the budget.
class UnheldWorkloads {
public:
    UnheldWorkloads(Ledger& ledger, store::StateStore& store, cgroup::DriverSelector& drivers);

    // Counted at `held`, as its cgroup holds now.
    bool count(const Instance& instance, const core::Amounts& held);
    // Counted at what its cgroup holds; a cgroup that cannot be read is
    // logged and leaves the figure as it was.
    bool count(const Instance& instance);
    // Holds nothing any more: gone, or its allocation is held now.
    bool drop(const std::string& name);
    // The unheld workloads of a listing, but the managed ones that hold an
    // allocation; those in `kept` stay as counted.
    bool replace(const std::vector<Instance>& instances, const std::set<std::string>& kept);
    // Reads every counted cgroup again, at most once a second: reading them
    // on every call would cost more than the call itself.
    void reread();

private:
    core::Amounts readHeld(const std::string& cgroupPath);

    Ledger& ledger_;
    store::StateStore& store_;
    cgroup::DriverSelector& drivers_;
    std::map<std::string, std::string> cgroups_;
    std::chrono::steady_clock::time_point readAt_;
};

}  // namespace resized::service
