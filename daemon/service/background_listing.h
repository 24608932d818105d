#pragma once

#include <functional>
#include <variant>
#include <vector>

#include "service/worker_thread.h"
#include "service/workload_source.h"

namespace resized::service {

// Lists sources' workloads on a thread of its own and hands each listing
// (all the sources' workloads, or why one could not be asked) to the event
// loop.
//
// Podman answers a listing only once it can take every container's lock,
// and a container being created or restarted holds its lock until its OCI
// hook returns — while the hook waits for this daemon. Listed from the
// loop, every caller would stall, the hook first, until the hook gave up.
class BackgroundListing {
public:
    // The instances, or why the source could not be asked.
    using Result = std::variant<std::vector<Instance>, SourceUnavailable>;
    using Done = std::function<void(Result)>;

    // The sources are used from the listing thread only, from now until the
    // destructor returns.
    BackgroundListing(EventLoop& loop, std::vector<WorkloadSource*> sources);
    BackgroundListing(EventLoop& loop, WorkloadSource& source) : BackgroundListing(loop, {&source}) {}

    // Calls `done` from the loop with a listing begun after this call.
    // Callers that ask while one is under way share the next one: the one
    // under way may have seen too early what they want to know.
    void list(Done done);

private:
    void startListing();
    void deliver(const Result& result);

    std::vector<WorkloadSource*> sources_;

    // Callers of the listing under way, and of the next one.
    std::vector<Done> current_;
    std::vector<Done> next_;

    // Last: its thread uses source_ until it is joined.
    WorkerThread worker_;
};

}  // namespace resized::service
