#pragma once

#include <chrono>

#include <signal.h>

namespace resized::ctl {

// SIGINT and SIGTERM are taken by sigwait() rather than a handler, so that
// a verb that runs until interrupted stops cleanly from the main thread.
// Construct before any thread starts (the bus's event loop), which inherits
// the mask; a signal arriving meanwhile stays pending until waited for.
class StopSignals {
public:
    StopSignals();
    ~StopSignals();

    StopSignals(const StopSignals&) = delete;
    StopSignals& operator=(const StopSignals&) = delete;

    // Until one of them arrives.
    void wait() const;
    // At most `timeout`; true when one arrived.
    bool waitFor(std::chrono::microseconds timeout) const;

private:
    sigset_t signals_{};
    sigset_t previous_{};
};

}  // namespace resized::ctl
