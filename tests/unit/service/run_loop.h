#pragma once

#include <chrono>
#include <cstdint>
#include <functional>

#include "service/event_loop.h"

namespace resized::service::test {

// Dispatches the loop's events until `done` holds. False when it still does
// not after `limit` — a hang, not a measure of speed: callers assert on it.
inline bool runLoopUntil(EventLoop& loop, const std::function<bool()>& done,
                         std::chrono::milliseconds limit = std::chrono::seconds(10))
{
    const auto deadline = std::chrono::steady_clock::now() + limit;
    while (!done()) {
        if (std::chrono::steady_clock::now() >= deadline)
            return false;
        constexpr uint64_t kWakeUpUsec = 100'000;
        if (sd_event_run(loop.handle(), kWakeUpUsec) < 0)
            return false;
    }
    return true;
}

}  // namespace resized::service::test
