#include "poll_loop.h"

#include <algorithm>
#include <poll.h>
#include <vector>

namespace resized::test {

void PollLoop::watchSocket(int fd, bool readable, bool writable)
{
    events_[fd] = static_cast<short>((readable ? POLLIN : 0) | (writable ? POLLOUT : 0));
}

void PollLoop::unwatchSocket(int fd)
{
    events_.erase(fd);
}

void PollLoop::setTimer(std::optional<std::chrono::milliseconds> delay)
{
    timerDue_ = delay ? std::optional(Clock::now() + *delay) : std::nullopt;
}

bool PollLoop::runUntil(const std::function<bool()>& done, std::chrono::milliseconds timeout)
{
    using std::chrono::duration_cast;
    using std::chrono::milliseconds;
    auto giveUp = Clock::now() + timeout;
    while (!done() && Clock::now() < giveUp) {
        auto wakeUp = timerDue_ ? std::min(*timerDue_, giveUp) : giveUp;
        auto waitMs = std::max<int64_t>(0, duration_cast<milliseconds>(wakeUp - Clock::now()).count());

        std::vector<pollfd> fds;
        for (auto [fd, events] : events_)
            fds.push_back({fd, events, 0});
        poll(fds.data(), fds.size(), static_cast<int>(waitMs));

        // The stream may change what is watched while it handles one socket.
        for (const auto& ready : fds) {
            if (ready.revents == 0 || !events_.contains(ready.fd))
                continue;
            bool failed = ready.revents & (POLLERR | POLLHUP);
            stream_->onSocketReady(ready.fd, (ready.revents & POLLIN) || failed,
                                   (ready.revents & POLLOUT) || failed);
        }
        if (timerDue_ && Clock::now() >= *timerDue_) {
            timerDue_.reset();
            stream_->onTimeout();
        }
    }
    return done();
}

}  // namespace resized::test
