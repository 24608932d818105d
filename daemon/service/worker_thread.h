#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <stop_token>
#include <thread>

#include "service/event_loop.h"

namespace resized::service {

// Runs jobs one after another, in the order they were posted, on a thread of
// its own, and hands each job's outcome back to the event loop.
//
// For the calls to a runtime that may take seconds to answer: Podman holds
// a container's lock while it creates or restarts it, and answers nothing
// that needs that lock until the container's OCI hook returns — while the
// hook waits for this daemon's loop.
class WorkerThread {
public:
    // What is to run on the loop once a job is done.
    using Continuation = std::function<void()>;
    // Runs on the worker thread: it must touch nothing the loop uses.
    using Job = std::function<Continuation()>;

    explicit WorkerThread(EventLoop& loop);
    // Waits for the job under way, at most the time limit of its requests;
    // the jobs not begun and the continuations not run are dropped.
    ~WorkerThread();
    WorkerThread(const WorkerThread&) = delete;
    WorkerThread& operator=(const WorkerThread&) = delete;

    void post(Job job);

private:
    static int onWake(sd_event_source* source, int fd, uint32_t events, void* userdata);
    void runContinuations();
    void work(std::stop_token stop);

    int wakeFd_ = -1;  // owned by wakeSource_
    EventSource wakeSource_;

    // Shared with the worker thread.
    std::mutex mutex_;
    std::condition_variable_any posted_;
    std::deque<Job> jobs_;
    std::deque<Continuation> continuations_;

    // Last: stopped and joined before the members it uses go.
    std::jthread thread_;
};

}  // namespace resized::service
