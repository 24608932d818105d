#pragma once

#include <chrono>
#include <string>

#include "core/backoff.h"
#include "runtime/event_stream.h"
#include "service/container_events.h"
#include "service/event_loop.h"
#include "service/sd_event_hooks.h"

namespace resized::service {

// Follows Podman's container events and tells ContainerEvents of each
// lifecycle step, so that desired limits come back the moment a container
// (re)starts. When the stream ends it reconnects with exponential backoff.
//
// A connection counts only once it has proven healthy: it delivered an
// event or stayed open for kHealthyAfter. Then, once per connection, the
// backoff starts over and everything is resynchronised, so nothing that
// happened while there was no stream is missed. A stream that Podman ends
// right after opening it (events_logger="none" does) is no connection: it
// neither resynchronises nor resets the backoff, and does not count as
// losing Podman — which answered. Losing Podman is a healthy stream ending,
// or a connection refused before Podman answered.
class RuntimeWatcher {
public:
    RuntimeWatcher(EventLoop& loop, ContainerEvents& events, const std::string& podmanSocket);

    void start();

    static constexpr std::chrono::milliseconds kFirstRetry{250};
    static constexpr std::chrono::milliseconds kLongestRetry{30'000};
    static constexpr std::chrono::milliseconds kHealthyAfter{2'000};

private:
    enum class Connection {
        None,      // connecting, or waiting to reconnect
        Unproven,  // Podman answered 200; nothing proves yet that events flow
        Healthy,
    };

    void connect();
    void onEstablished();
    void onEvent(const runtime::ContainerEvent& event);
    void onHealthy();
    void onEnded(const std::string& reason);
    void dispatch(const runtime::ContainerEvent& event);

    EventLoop& loop_;
    ContainerEvents& events_;
    SdEventHooks hooks_;
    runtime::EventStream stream_;
    core::Backoff reconnectDelays_{kFirstRetry, kLongestRetry};
    Connection connection_ = Connection::None;
    EventSource healthyTimer_;
    EventSource retryTimer_;
};

}  // namespace resized::service
