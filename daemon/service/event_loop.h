#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <vector>

#include <systemd/sd-event.h>

namespace resized::service {

// An sd-event source that is unreferenced (and so disabled) when dropped.
class EventSource {
public:
    EventSource() = default;
    explicit EventSource(sd_event_source* source) : source_(source) {}
    sd_event_source* get() const { return source_.get(); }
    explicit operator bool() const { return source_ != nullptr; }

private:
    struct Unref {
        void operator()(sd_event_source* source) const { sd_event_source_disable_unref(source); }
    };
    std::unique_ptr<sd_event_source, Unref> source_;
};

// The daemon's one event loop. Everything — D-Bus, timers, signals, the
// watchdog — is dispatched from run() on the calling thread.
class EventLoop {
public:
    using Callback = std::function<void()>;

    EventLoop();
    ~EventLoop();
    EventLoop(const EventLoop&) = delete;
    EventLoop& operator=(const EventLoop&) = delete;

    sd_event* handle() const { return event_; }

    // A one-shot timer; dropping the returned source cancels it. It fires
    // up to sd-event's default accuracy (250 ms) late, so that timers of
    // the whole daemon share wake-ups.
    [[nodiscard]] EventSource after(std::chrono::microseconds delay, Callback callback);
    // A one-shot timer at `deadline` (CLOCK_MONOTONIC), at most `accuracy`
    // late, for work whose period must hold.
    [[nodiscard]] EventSource at(std::chrono::steady_clock::time_point deadline, std::chrono::microseconds accuracy,
                                 Callback callback);

    // Calls `callback` with the events epoll reports for `fd` (EPOLLPRI,
    // EPOLLERR, ...) while the returned source lives; `fd` must outlive it.
    [[nodiscard]] EventSource watch(int fd, uint32_t events, std::function<void(uint32_t)> callback);

    // Blocks `signal` for the process and calls `callback` from the loop when
    // it arrives. Lives as long as the loop.
    void onSignal(int signal, Callback callback);

    // Sends WATCHDOG=1 at half the interval systemd asked for, if it did.
    void enableWatchdog();

    int run();
    void exit(int code);

private:
    struct TimerState;
    struct IoState;
    EventSource addTimer(uint64_t usec, uint64_t accuracyUsec, bool relative, Callback callback);
    sd_event* event_ = nullptr;
    std::vector<EventSource> permanentSources_;
    std::vector<std::unique_ptr<Callback>> signalCallbacks_;
};

}  // namespace resized::service
