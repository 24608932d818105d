#include "child_process.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <stdexcept>
#include <system_error>
#include <vector>

namespace resized::cgroup::test {

namespace {

[[noreturn]] void throwErrno(const char* what)
{
    throw std::system_error(errno, std::generic_category(), what);
}

void closeIfOpen(int& fd)
{
    if (fd >= 0)
        close(fd);
    fd = -1;
}

void holdAnonymousMemory(size_t bytes)
{
    void* memory = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (memory == MAP_FAILED)
        _exit(2);
    std::memset(memory, 0x5a, bytes);
}

void holdPageCache(size_t bytes, const std::string& directory)
{
    const int fd = open((directory + "/page-cache").c_str(), O_CREAT | O_WRONLY | O_TRUNC | O_CLOEXEC, 0600);
    std::vector<char> chunk(1 << 20, 0x5a);
    for (size_t written = 0; fd >= 0 && written < bytes; written += chunk.size())
        if (write(fd, chunk.data(), chunk.size()) != static_cast<ssize_t>(chunk.size()))
            _exit(3);
    if (fd < 0 || fsync(fd) < 0)
        _exit(4);
    close(fd);
}

}  // namespace

Pipe::Pipe()
{
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) < 0)
        throwErrno("pipe2");
    read_ = fds[0];
    write_ = fds[1];
}

Pipe::~Pipe()
{
    closeReadEnd();
    closeWriteEnd();
}

void Pipe::signal()
{
    const char byte = 1;
    if (::write(write_, &byte, 1) != 1)
        throwErrno("write to pipe");
}

bool Pipe::wait()
{
    char byte;
    ssize_t count;
    do
        count = ::read(read_, &byte, 1);
    while (count < 0 && errno == EINTR);
    return count == 1;
}

void Pipe::closeReadEnd()
{
    closeIfOpen(read_);
}

void Pipe::closeWriteEnd()
{
    closeIfOpen(write_);
}

ChildProcess::ChildProcess(const std::function<void()>& body) : pid_(fork())
{
    if (pid_ < 0)
        throwErrno("fork");
    // The child must never return into the test runner.
    if (pid_ == 0) {
        try {
            body();
        } catch (...) {
            _exit(127);
        }
        _exit(0);
    }
}

ChildProcess::~ChildProcess()
{
    if (reaped_)
        return;
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
}

bool ChildProcess::alive()
{
    if (!reaped_ && waitpid(pid_, nullptr, WNOHANG) == pid_)
        reaped_ = true;
    return !reaped_;
}

MemoryHolder::MemoryHolder(MemoryKind kind, size_t bytes, const std::function<void(pid_t)>& join,
                           const std::string& directory)
{
    process_ = std::make_unique<ChildProcess>([&] {
        go_.closeWriteEnd();
        ready_.closeReadEnd();
        if (!go_.wait())
            _exit(1);
        if (kind == MemoryKind::Anonymous)
            holdAnonymousMemory(bytes);
        else
            holdPageCache(bytes, directory);
        ready_.signal();
        while (true)
            pause();
    });
    go_.closeReadEnd();
    ready_.closeWriteEnd();
    join(process_->pid());
    go_.signal();
    if (!ready_.wait())
        throw std::runtime_error("the memory holder died before it held its memory");
}

}  // namespace resized::cgroup::test
