#include "service/event_loop.h"

#include <signal.h>

#include <algorithm>
#include <stdexcept>

#include <spdlog/spdlog.h>
#include <string>

namespace resized::service {
namespace {

void check(int rc, const char* what)
{
    if (rc < 0)
        throw std::runtime_error(std::string(what) + ": " + std::to_string(-rc));
}

// Runs a source's callback for sd-event: an exception must not unwind
// through its C frames.
template <typename Function, typename... Arguments>
int guarded(const char* what, const Function& callback, Arguments... arguments)
{
    try {
        callback(arguments...);
    } catch (const std::exception& error) {
        spdlog::error("{} failed: {}", what, error.what());
    }
    return 0;
}

// Hands a source's state to sd-event, which frees it with the source,
// whether it fired or was cancelled.
template <typename State>
EventSource owning(sd_event_source* source, std::unique_ptr<State> state)
{
    sd_event_source_set_destroy_callback(source, [](void* userdata) { delete static_cast<State*>(userdata); });
    state.release();
    return EventSource(source);
}

}  // namespace

struct EventLoop::TimerState {
    Callback callback;

    static int fire(sd_event_source*, uint64_t, void* userdata)
    {
        return guarded("timer", static_cast<TimerState*>(userdata)->callback);
    }
};

struct EventLoop::IoState {
    std::function<void(uint32_t)> callback;

    static int fire(sd_event_source*, int, uint32_t events, void* userdata)
    {
        return guarded("watching a file", static_cast<IoState*>(userdata)->callback, events);
    }
};

EventLoop::EventLoop()
{
    check(sd_event_default(&event_), "sd_event_default");
}

EventLoop::~EventLoop()
{
    permanentSources_.clear();
    sd_event_unref(event_);
}

EventSource EventLoop::after(std::chrono::microseconds delay, Callback callback)
{
    return addTimer(static_cast<uint64_t>(delay.count()), 0, true, std::move(callback));
}

EventSource EventLoop::at(std::chrono::steady_clock::time_point deadline, std::chrono::microseconds accuracy,
                          Callback callback)
{
    // An accuracy of 0 would mean sd-event's default; 1 µs is "exactly".
    const auto usec = std::chrono::duration_cast<std::chrono::microseconds>(deadline.time_since_epoch());
    return addTimer(static_cast<uint64_t>(usec.count()), static_cast<uint64_t>(std::max<int64_t>(accuracy.count(), 1)),
                    false, std::move(callback));
}

EventSource EventLoop::addTimer(uint64_t usec, uint64_t accuracyUsec, bool relative, Callback callback)
{
    auto state = std::make_unique<TimerState>(TimerState{std::move(callback)});
    sd_event_source* source = nullptr;
    const int result =
        relative ? sd_event_add_time_relative(event_, &source, CLOCK_MONOTONIC, usec, accuracyUsec,
                                              &TimerState::fire, state.get())
                 : sd_event_add_time(event_, &source, CLOCK_MONOTONIC, usec, accuracyUsec, &TimerState::fire,
                                     state.get());
    check(result, "sd_event_add_time");
    return owning(source, std::move(state));
}

EventSource EventLoop::watch(int fd, uint32_t events, std::function<void(uint32_t)> callback)
{
    auto state = std::make_unique<IoState>(IoState{std::move(callback)});
    sd_event_source* source = nullptr;
    check(sd_event_add_io(event_, &source, fd, events, &IoState::fire, state.get()), "sd_event_add_io");
    return owning(source, std::move(state));
}

void EventLoop::onSignal(int signal, Callback callback)
{
    sigset_t mask;
    sigemptyset(&mask);
    sigaddset(&mask, signal);
    sigprocmask(SIG_BLOCK, &mask, nullptr);

    auto& stored = signalCallbacks_.emplace_back(std::make_unique<Callback>(std::move(callback)));
    sd_event_source* source = nullptr;
    check(sd_event_add_signal(
              event_, &source, signal,
              [](sd_event_source*, const signalfd_siginfo* info, void* userdata) {
                  try {
                      (*static_cast<Callback*>(userdata))();
                  } catch (const std::exception& error) {
                      // As for timers: nothing may unwind through sd-event.
                      spdlog::error("handling signal {} failed: {}", info->ssi_signo, error.what());
                  }
                  return 0;
              },
              stored.get()),
          "sd_event_add_signal");
    permanentSources_.emplace_back(source);
}

void EventLoop::enableWatchdog()
{
    check(sd_event_set_watchdog(event_, true), "sd_event_set_watchdog");
}

int EventLoop::run() { return sd_event_loop(event_); }

void EventLoop::exit(int code) { sd_event_exit(event_, code); }

}  // namespace resized::service
