#pragma once

#include <sdbus-c++/IConnection.h>

#include "service/event_loop.h"

namespace resized::bus {

// Drives an sdbus-c++ connection from the daemon's sd-event loop: an I/O
// source on the bus fd and a timer for sd-bus' own timeouts, both re-armed
// from getEventLoopPollData() before every poll. Losing the bus ends the
// loop with a failure, so that systemd restarts the daemon on a fresh bus.
class BusEventSource {
public:
    BusEventSource(sdbus::IConnection& connection, service::EventLoop& loop);

private:
    static int onIo(sd_event_source*, int, uint32_t, void* userdata);
    static int onTimeout(sd_event_source*, uint64_t, void* userdata);
    static int onPrepare(sd_event_source*, void* userdata);
    void process();

    sdbus::IConnection& connection_;
    service::EventLoop& loop_;
    service::EventSource io_;
    service::EventSource timer_;
};

}  // namespace resized::bus
