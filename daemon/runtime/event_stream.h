#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "runtime/container_event.h"

namespace resized::runtime {

// What an EventStream needs from the event loop that drives it (sd-event in
// the daemon). The stream never blocks: it asks the loop to watch its socket
// and to arm one timer, and the loop calls back into it when either fires.
class EventLoopHooks {
public:
    virtual ~EventLoopHooks() = default;
    // Watch fd for these conditions, replacing any earlier watch of fd, and
    // call EventStream::onSocketReady when one holds.
    virtual void watchSocket(int fd, bool readable, bool writable) = 0;
    virtual void unwatchSocket(int fd) = 0;
    // Call EventStream::onTimeout once after delay (zero: as soon as
    // possible), replacing any earlier timer; nullopt disarms it.
    virtual void setTimer(std::optional<std::chrono::milliseconds> delay) = 0;
};

struct EventStreamHandlers {
    // Podman accepted the request; events from now on will be delivered.
    // Anything that happened while there was no stream is not: this is the
    // moment to re-read every container.
    std::function<void()> established;
    std::function<void(const ContainerEvent&)> event;
    // The stream is over (Podman went away, refused the request, or could
    // not be reached); reason says why. start() may be called again.
    std::function<void(const std::string& reason)> ended;
};

// Podman's container events (GET /libpod/events?stream=true, filtered to
// type=container), read without blocking. Handlers run from onSocketReady()
// and onTimeout(), never from inside libcurl; they may call stop() but must
// not destroy the stream. A handler that throws (std::exception) is logged,
// with the container's name first for an event, and the stream goes on:
// the rest of the batch is delivered and its end still reported.
class EventStream {
public:
    EventStream(std::string socketPath, EventLoopHooks& loop, EventStreamHandlers handlers);
    // Stops the stream, which may still call the loop's hooks.
    ~EventStream();
    EventStream(const EventStream&) = delete;
    EventStream& operator=(const EventStream&) = delete;

    // Begins connecting; a no-op while the stream is active.
    void start();
    // Ends the stream without calling `ended`.
    void stop();
    // From start() until the stream ended (`ended` was called) or was
    // stopped: a request is open and being read.
    bool active() const;

    // For the event loop.
    void onSocketReady(int fd, bool readable, bool writable);
    void onTimeout();

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace resized::runtime
