#include "verbs/stop_signals.h"

#include <cerrno>
#include <ctime>
#include <system_error>

#include <pthread.h>

namespace resized::ctl {

StopSignals::StopSignals()
{
    sigemptyset(&signals_);
    sigaddset(&signals_, SIGINT);
    sigaddset(&signals_, SIGTERM);
    if (const int error = pthread_sigmask(SIG_BLOCK, &signals_, &previous_))
        throw std::system_error(error, std::generic_category(), "pthread_sigmask");
}

StopSignals::~StopSignals()
{
    pthread_sigmask(SIG_SETMASK, &previous_, nullptr);
}

void StopSignals::wait() const
{
    int signal = 0;
    sigwait(&signals_, &signal);
}

bool StopSignals::waitFor(std::chrono::microseconds timeout) const
{
    using namespace std::chrono;
    const auto deadline = steady_clock::now() + timeout;
    for (;;) {
        const auto left = duration_cast<nanoseconds>(deadline - steady_clock::now());
        if (left <= nanoseconds::zero())
            return false;
        const auto wholeSeconds = duration_cast<seconds>(left);
        const timespec wait{static_cast<time_t>(wholeSeconds.count()),
                            static_cast<long>((left - wholeSeconds).count())};
        if (sigtimedwait(&signals_, nullptr, &wait) >= 0)
            return true;
        if (errno != EINTR && errno != EAGAIN)
            throw std::system_error(errno, std::generic_category(), "sigtimedwait");
    }
}

}  // namespace resized::ctl
