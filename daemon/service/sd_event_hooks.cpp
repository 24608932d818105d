#include "service/sd_event_hooks.h"

#include <stdexcept>

#include <spdlog/spdlog.h>

namespace resized::service {

void SdEventHooks::watchSocket(int fd, bool readable, bool writable)
{
    const uint32_t events = (readable ? EPOLLIN : 0u) | (writable ? EPOLLOUT : 0u);
    if (auto existing = sockets_.find(fd); existing != sockets_.end()) {
        sd_event_source_set_io_events(existing->second.get(), events);
        return;
    }
    sd_event_source* source = nullptr;
    if (sd_event_add_io(loop_.handle(), &source, fd, events, &onIo, this) < 0)
        throw std::runtime_error("cannot watch the Podman event stream socket");
    sockets_.emplace(fd, EventSource(source));
}

void SdEventHooks::unwatchSocket(int fd) { sockets_.erase(fd); }

void SdEventHooks::setTimer(std::optional<std::chrono::milliseconds> delay)
{
    if (!delay) {
        timer_ = {};
        return;
    }
    timer_ = loop_.after(*delay, [this] { stream_->onTimeout(); });
}

int SdEventHooks::onIo(sd_event_source*, int fd, uint32_t events, void* userdata)
{
    auto* self = static_cast<SdEventHooks*>(userdata);
    try {
        self->stream_->onSocketReady(fd, (events & (EPOLLIN | EPOLLHUP | EPOLLERR)) != 0,
                                     (events & EPOLLOUT) != 0);
    } catch (const std::exception& error) {
        // An exception must not unwind through sd-event's C frames; the
        // periodic sync and retries pick up what this event could not do.
        spdlog::error("handling a Podman event failed: {}", error.what());
    }
    return 0;
}

}  // namespace resized::service
