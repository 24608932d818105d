#pragma once

#include <chrono>
#include <string>

#include "runtime/event_stream.h"
#include "service/container_events.h"
#include "service/event_loop.h"
#include "service/sd_event_hooks.h"

namespace resized::service {

// Follows Podman's container events and tells the resource manager, so that
// desired limits come back the moment a container (re)starts. When the
// stream ends (Podman went away) it reconnects with exponential backoff, and
// every (re)connection resynchronises fully, so nothing that happened while
// there was no stream is missed.
class RuntimeWatcher {
public:
    RuntimeWatcher(EventLoop& loop, ContainerEvents& events, const std::string& podmanSocket);

    void start();

private:
    void onEvent(const runtime::ContainerEvent& event);
    void onEnded(const std::string& reason);

    static constexpr std::chrono::milliseconds kFirstRetry{250};
    static constexpr std::chrono::milliseconds kLongestRetry{30'000};

    EventLoop& loop_;
    ContainerEvents& events_;
    SdEventHooks hooks_;
    runtime::EventStream stream_;
    std::chrono::milliseconds retryDelay_ = kFirstRetry;
    EventSource retryTimer_;
};

}  // namespace resized::service
