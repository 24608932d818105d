#pragma once

#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <stop_token>
#include <thread>
#include <variant>
#include <vector>

#include "service/event_loop.h"
#include "service/workload_source.h"

namespace resized::service {

// Lists a source's workloads on a thread of its own and hands each listing
// to the event loop.
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

    // `source` is used from the listing thread only, from now until the
    // destructor returns.
    BackgroundListing(EventLoop& loop, WorkloadSource& source);
    // Waits for a listing under way: at most the time limit of the
    // source's requests.
    ~BackgroundListing();
    BackgroundListing(const BackgroundListing&) = delete;
    BackgroundListing& operator=(const BackgroundListing&) = delete;

    // Calls `done` from the loop with a listing begun after this call.
    // Callers that ask while one is under way share the next one: the one
    // under way may have seen too early what they want to know.
    void list(Done done);

private:
    static int onWake(sd_event_source* source, int fd, uint32_t events, void* userdata);
    void deliver();
    void startListing();
    void work(std::stop_token stop);

    WorkloadSource& source_;
    int wakeFd_ = -1;  // owned by wakeSource_
    EventSource wakeSource_;

    // The loop's: callers of the listing under way, and of the next one.
    std::vector<Done> current_;
    std::vector<Done> next_;

    // Shared with the listing thread.
    std::mutex mutex_;
    std::condition_variable_any requested_;
    bool listingRequested_ = false;
    std::optional<Result> result_;

    // Last: stopped and joined before the members it uses go.
    std::jthread thread_;
};

}  // namespace resized::service
