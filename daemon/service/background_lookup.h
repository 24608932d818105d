#pragma once

#include <functional>
#include <optional>
#include <variant>

#include "core/workload_name.h"
#include "service/worker_thread.h"
#include "service/workload_source.h"

namespace resized::service {

// One workload as its source found it (nullopt: there is none), or why the
// source could not tell.
using Found = std::variant<std::optional<Instance>, SourceUnavailable, AmbiguousName>;
using FoundCallback = std::function<void(Found)>;

// Asks the source of `name`'s kind, with its exceptions as the outcome.
Found findIn(const WorkloadSources& sources, const core::WorkloadName& name);

// Finds single workloads through their sources on a thread of its own, in
// the order asked, and hands each to the event loop: an inspect of a
// container that Podman holds locked, or of a hung Podman, stalls no other
// caller (worker_thread.h).
class BackgroundLookup {
public:
    // `sources` are used from the lookup thread only, from now until the
    // destructor returns.
    BackgroundLookup(EventLoop& loop, WorkloadSources sources);

    // Calls `done` from the loop.
    void find(const core::WorkloadName& name, FoundCallback done);

private:
    WorkloadSources sources_;
    // Last: its thread uses sources_ until it is joined.
    WorkerThread worker_;
};

}  // namespace resized::service
