#include "bus/bus_event_source.h"

#include <cstdlib>
#include <stdexcept>

#include <sdbus-c++/Error.h>
#include <spdlog/spdlog.h>

namespace resized::bus {

BusEventSource::BusEventSource(sdbus::IConnection& connection, service::EventLoop& loop)
    : connection_(connection), loop_(loop)
{
    const auto poll = connection_.getEventLoopPollData();
    sd_event_source* io = nullptr;
    if (sd_event_add_io(loop.handle(), &io, poll.fd, static_cast<uint32_t>(poll.events), &onIo, this) < 0)
        throw std::runtime_error("cannot watch the bus connection");
    io_ = service::EventSource(io);
    sd_event_source_set_prepare(io, &onPrepare);

    sd_event_source* timer = nullptr;
    if (sd_event_add_time(loop.handle(), &timer, CLOCK_MONOTONIC, UINT64_MAX, 0, &onTimeout, this) < 0)
        throw std::runtime_error("cannot add the bus timer");
    timer_ = service::EventSource(timer);
}

void BusEventSource::process()
{
    try {
        while (connection_.processPendingRequest()) {
        }
    } catch (const sdbus::Error& error) {
        spdlog::error("lost the D-Bus connection: {}", error.what());
        loop_.exit(EXIT_FAILURE);
    }
}

int BusEventSource::onIo(sd_event_source*, int, uint32_t, void* userdata)
{
    static_cast<BusEventSource*>(userdata)->process();
    return 0;
}

int BusEventSource::onTimeout(sd_event_source*, uint64_t, void* userdata)
{
    static_cast<BusEventSource*>(userdata)->process();
    return 0;
}

int BusEventSource::onPrepare(sd_event_source*, void* userdata)
{
    auto* self = static_cast<BusEventSource*>(userdata);
    const auto poll = self->connection_.getEventLoopPollData();
    sd_event_source_set_io_events(self->io_.get(), static_cast<uint32_t>(poll.events));
    if (poll.timeout_usec == UINT64_MAX) {
        sd_event_source_set_enabled(self->timer_.get(), SD_EVENT_OFF);
    } else {
        sd_event_source_set_time(self->timer_.get(), poll.timeout_usec);
        sd_event_source_set_enabled(self->timer_.get(), SD_EVENT_ONESHOT);
    }
    return 0;
}

}  // namespace resized::bus
