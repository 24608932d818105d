#pragma once

// A poll(2) loop implementing EventLoopHooks, so that a test drives an
// EventStream exactly as the daemon's sd-event loop does.

#include <chrono>
#include <functional>
#include <map>
#include <optional>

#include "runtime/event_stream.h"

namespace resized::test {

class PollLoop : public runtime::EventLoopHooks {
public:
    void attach(runtime::EventStream& stream) { stream_ = &stream; }

    void watchSocket(int fd, bool readable, bool writable) override;
    void unwatchSocket(int fd) override;
    void setTimer(std::optional<std::chrono::milliseconds> delay) override;

    // Dispatches until done() holds or timeout passes; returns done().
    bool runUntil(const std::function<bool()>& done, std::chrono::milliseconds timeout);

    size_t watchedSockets() const { return events_.size(); }

private:
    using Clock = std::chrono::steady_clock;
    runtime::EventStream* stream_ = nullptr;
    std::map<int, short> events_;
    std::optional<Clock::time_point> timerDue_;
};

}  // namespace resized::test
