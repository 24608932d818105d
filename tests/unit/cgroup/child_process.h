#pragma once

#include <sys/types.h>

#include <cstddef>
#include <functional>
#include <memory>
#include <string>

namespace resized::cgroup::test {

// Both ends of a pipe, closed when it goes.
class Pipe {
public:
    Pipe();
    Pipe(const Pipe&) = delete;
    Pipe& operator=(const Pipe&) = delete;
    ~Pipe();

    // One byte: a step of one process is done.
    void signal();
    // Waits for signal(); false when the other side closed without it.
    bool wait();
    void closeReadEnd();
    void closeWriteEnd();

private:
    int read_ = -1;
    int write_ = -1;
};

// A forked process running `body`, SIGKILLed and reaped when it goes.
class ChildProcess {
public:
    explicit ChildProcess(const std::function<void()>& body);
    ChildProcess(const ChildProcess&) = delete;
    ChildProcess& operator=(const ChildProcess&) = delete;
    ~ChildProcess();

    pid_t pid() const { return pid_; }
    // Not exited (nor killed) yet.
    bool alive();

private:
    pid_t pid_;
    bool reaped_ = false;
};

// What a MemoryHolder holds: anonymous memory cannot be reclaimed without
// swap; a file written and synced leaves clean page cache, which can.
enum class MemoryKind { Anonymous, PageCache };

// A child that holds `bytes` of memory charged to the cgroups it was put
// in: `join` gets its pid before it touches any memory, so that the memory is
// charged where it joined (v1 does not move charges with a task). A page-cache
// holder writes its file in `directory`.
class MemoryHolder {
public:
    MemoryHolder(MemoryKind kind, size_t bytes, const std::function<void(pid_t)>& join,
                 const std::string& directory = {});

    ChildProcess& process() { return *process_; }

private:
    Pipe go_;
    Pipe ready_;
    std::unique_ptr<ChildProcess> process_;
};

}  // namespace resized::cgroup::test
