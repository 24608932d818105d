#include "service/worker_thread.h"

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

WorkerThread::WorkerThread(EventLoop& loop)
{
    wakeFd_ = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (wakeFd_ < 0)
        throw std::runtime_error(std::string("eventfd: ") + std::strerror(errno));
    sd_event_source* wake = nullptr;
    if (const int rc = sd_event_add_io(loop.handle(), &wake, wakeFd_, EPOLLIN, &onWake, this); rc < 0) {
        close(wakeFd_);
        throw std::runtime_error(std::string("cannot watch a worker thread: ") + std::strerror(-rc));
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

WorkerThread::~WorkerThread() = default;

void WorkerThread::post(Job job)
{
    {
        const std::lock_guard lock(mutex_);
        jobs_.push_back(std::move(job));
    }
    posted_.notify_one();
}

void WorkerThread::work(std::stop_token stop)
{
    for (;;) {
        Job job;
        {
            std::unique_lock lock(mutex_);
            if (!posted_.wait(lock, stop, [this] { return !jobs_.empty(); }))
                return;
            job = std::move(jobs_.front());
            jobs_.pop_front();
        }
        Continuation continuation;
        try {
            continuation = job();
        } catch (const std::exception& error) {
            continuation = [what = std::string(error.what())] { spdlog::error("a runtime call failed: {}", what); };
        }
        {
            const std::lock_guard lock(mutex_);
            continuations_.push_back(std::move(continuation));
        }
        const uint64_t one = 1;
        // Cannot fail short of a counter at its maximum, which the loop,
        // reading it after every few jobs, never lets it reach.
        [[maybe_unused]] const ssize_t written = write(wakeFd_, &one, sizeof one);
    }
}

int WorkerThread::onWake(sd_event_source*, int fd, uint32_t, void* userdata)
{
    uint64_t count = 0;
    [[maybe_unused]] const ssize_t read = ::read(fd, &count, sizeof count);
    static_cast<WorkerThread*>(userdata)->runContinuations();
    return 0;
}

void WorkerThread::runContinuations()
{
    std::deque<Continuation> ready;
    {
        const std::lock_guard lock(mutex_);
        ready.swap(continuations_);
    }
    for (auto& continuation : ready) {
        if (!continuation)
            continue;
        try {
            continuation();
        } catch (const std::exception& error) {
            // An exception must not unwind through sd-event's C frames.
            spdlog::error("handling the outcome of a runtime call failed: {}", error.what());
        }
    }
}

}  // namespace resized::service
