#pragma once

#include <map>

#include "runtime/event_stream.h"
#include "service/event_loop.h"

namespace resized::service {

// Drives a runtime::EventStream from the daemon's sd-event loop.
class SdEventHooks final : public runtime::EventLoopHooks {
public:
    explicit SdEventHooks(EventLoop& loop) : loop_(loop) {}

    // The stream to call back; set once, before it starts.
    void attach(runtime::EventStream& stream) { stream_ = &stream; }

    void watchSocket(int fd, bool readable, bool writable) override;
    void unwatchSocket(int fd) override;
    void setTimer(std::optional<std::chrono::milliseconds> delay) override;

private:
    static int onIo(sd_event_source* source, int fd, uint32_t events, void* userdata);

    EventLoop& loop_;
    runtime::EventStream* stream_ = nullptr;
    std::map<int, EventSource> sockets_;
    EventSource timer_;
};

}  // namespace resized::service
