#include "service/background_listing.h"

#include <pthread.h>
#include <signal.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>
#include <utility>

#include <spdlog/spdlog.h>

namespace resized::service {

BackgroundListing::BackgroundListing(EventLoop& loop, WorkloadSource& source) : source_(source)
{
    wakeFd_ = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (wakeFd_ < 0)
        throw std::runtime_error(std::string("eventfd: ") + std::strerror(errno));
    sd_event_source* wake = nullptr;
    if (const int rc = sd_event_add_io(loop.handle(), &wake, wakeFd_, EPOLLIN, &onWake, this); rc < 0) {
        close(wakeFd_);
        throw std::runtime_error(std::string("cannot watch the listing thread: ") + std::strerror(-rc));
    }
    sd_event_source_set_io_fd_own(wake, 1);
    wakeSource_ = EventSource(wake);
    // Signals are the loop's (signalfd): the thread starts with all of them
    // blocked, so that none ends the process from there.
    sigset_t all;
    sigset_t previous;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &previous);
    thread_ = std::jthread([this](std::stop_token stop) { work(std::move(stop)); });
    pthread_sigmask(SIG_SETMASK, &previous, nullptr);
}

BackgroundListing::~BackgroundListing() = default;

void BackgroundListing::list(Done done)
{
    if (!current_.empty()) {
        next_.push_back(std::move(done));
        return;
    }
    current_.push_back(std::move(done));
    startListing();
}

void BackgroundListing::startListing()
{
    {
        const std::lock_guard lock(mutex_);
        listingRequested_ = true;
    }
    requested_.notify_one();
}

void BackgroundListing::work(std::stop_token stop)
{
    for (;;) {
        {
            std::unique_lock lock(mutex_);
            if (!requested_.wait(lock, stop, [this] { return listingRequested_; }))
                return;
            listingRequested_ = false;
        }
        std::optional<Result> result;
        try {
            result.emplace(source_.list());
        } catch (const SourceUnavailable& error) {
            result.emplace(error);
        } catch (const std::exception& error) {
            result.emplace(SourceUnavailable(error.what()));
        }
        {
            const std::lock_guard lock(mutex_);
            result_ = std::move(result);
        }
        const uint64_t one = 1;
        // Cannot fail short of a counter at its maximum, which one listing
        // at a time never reaches.
        [[maybe_unused]] const ssize_t written = write(wakeFd_, &one, sizeof one);
    }
}

int BackgroundListing::onWake(sd_event_source*, int fd, uint32_t, void* userdata)
{
    uint64_t count = 0;
    [[maybe_unused]] const ssize_t read = ::read(fd, &count, sizeof count);
    try {
        static_cast<BackgroundListing*>(userdata)->deliver();
    } catch (const std::exception& error) {
        // An exception must not unwind through sd-event's C frames.
        spdlog::error("handling a listing failed: {}", error.what());
    }
    return 0;
}

void BackgroundListing::deliver()
{
    std::optional<Result> result;
    {
        const std::lock_guard lock(mutex_);
        result = std::exchange(result_, std::nullopt);
    }
    if (!result)
        return;
    const std::vector<Done> callers = std::exchange(current_, {});
    if (!next_.empty()) {
        current_ = std::exchange(next_, {});
        startListing();
    }
    for (const auto& done : callers)
        done(*result);
}

}  // namespace resized::service
