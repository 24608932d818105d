#pragma once

#include <chrono>

namespace resized::core {

// Exponential backoff between retries of one thing (reconnecting to Podman,
// repairing a workload, writing the store): the first retry waits `first`,
// each one after that twice as long as the one before, never more than
// `longest`. Pure arithmetic; the caller owns the timer.
class Backoff {
public:
    // Throws std::invalid_argument unless 0 < first <= longest.
    Backoff(std::chrono::milliseconds first, std::chrono::milliseconds longest);

    // The delay to wait before the next attempt; counts that attempt and
    // doubles the delay of the one after.
    std::chrono::milliseconds next();

    // The thing works again: the next delay is `first` once more.
    void reset();

    // Delays handed out by next() since construction or the last reset().
    unsigned attempts() const { return attempts_; }

private:
    std::chrono::milliseconds first_;
    std::chrono::milliseconds longest_;
    std::chrono::milliseconds upcoming_;
    unsigned attempts_ = 0;
};

}  // namespace resized::core
