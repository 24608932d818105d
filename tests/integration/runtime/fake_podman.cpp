#include "fake_podman.h"

#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <stdexcept>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

namespace resized::test {

namespace {

constexpr int kRequestTimeoutMs = 5'000;

void check(bool ok, const char* what)
{
    if (!ok)
        throw std::runtime_error(std::string(what) + ": " + std::strerror(errno));
}

void drain(int fd)
{
    char buffer[64];
    while (read(fd, buffer, sizeof buffer) > 0) {
    }
}

}  // namespace

FakePodman::FakePodman(Script script) : script_(std::move(script))
{
    const auto path = socketPath();
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    if (path.size() >= sizeof address.sun_path)
        throw std::runtime_error("socket path too long: " + path);
    std::memcpy(address.sun_path, path.c_str(), path.size() + 1);
    listener_ = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    check(listener_ >= 0, "socket");
    check(bind(listener_, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0, "bind");
    check(listen(listener_, 16) == 0, "listen");
    int wakePipe[2];
    check(pipe2(wakePipe, O_CLOEXEC | O_NONBLOCK) == 0, "pipe2");
    wakeRead_ = wakePipe[0];
    wakeWrite_ = wakePipe[1];
    thread_ = std::thread([this] { serve(); });
}

FakePodman::~FakePodman()
{
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake();
    thread_.join();
    close(listener_);
    close(wakeRead_);
    close(wakeWrite_);
}

unsigned FakePodman::connections() const
{
    std::lock_guard lock(mutex_);
    return static_cast<unsigned>(acceptTimes_.size());
}

std::vector<std::chrono::steady_clock::time_point> FakePodman::acceptTimes() const
{
    std::lock_guard lock(mutex_);
    return acceptTimes_;
}

void FakePodman::push(std::string data)
{
    {
        std::lock_guard lock(mutex_);
        commands_.push_back({std::move(data), false});
    }
    wake();
}

void FakePodman::hangUp()
{
    {
        std::lock_guard lock(mutex_);
        commands_.push_back({{}, true});
    }
    wake();
}

std::string FakePodman::eventLine(const std::string& action, const std::string& id,
                                  const std::string& name)
{
    return R"({"status":")" + action + R"(","id":")" + id
           + R"(","from":"localhost/busybox:latest","Type":"container","Action":")" + action
           + R"(","Actor":{"ID":")" + id + R"(","Attributes":{"image":"localhost/busybox:latest","name":")"
           + name + R"(","podId":""}},"scope":"local","time":1796105659,"timeNano":1796105659000000000})"
           + "\n";
}

void FakePodman::wake()
{
    const char byte = 0;
    // A full pipe already wakes the thread.
    [[maybe_unused]] auto written = write(wakeWrite_, &byte, 1);
}

void FakePodman::serve()
{
    for (unsigned index = 0;;) {
        // Checked before waiting: the wake-up that came with stopping may
        // have been drained while a connection was held open.
        {
            std::lock_guard lock(mutex_);
            if (stopping_)
                return;
        }
        pollfd fds[] = {{listener_, POLLIN, 0}, {wakeRead_, POLLIN, 0}};
        poll(fds, 2, -1);
        drain(wakeRead_);
        if (!(fds[0].revents & POLLIN))
            continue;
        const int fd = accept4(listener_, nullptr, nullptr, SOCK_CLOEXEC);
        if (fd < 0)
            continue;
        {
            std::lock_guard lock(mutex_);
            acceptTimes_.push_back(std::chrono::steady_clock::now());
        }
        readRequestHeaders(fd);
        Connection connection(*this, fd);
        script_(connection, index++);
        close(fd);
    }
}

void FakePodman::readRequestHeaders(int fd)
{
    std::string request;
    char buffer[1024];
    while (request.find("\r\n\r\n") == std::string::npos) {
        pollfd readable{fd, POLLIN, 0};
        if (poll(&readable, 1, kRequestTimeoutMs) <= 0)
            return;
        const ssize_t count = read(fd, buffer, sizeof buffer);
        if (count <= 0)
            return;
        request.append(buffer, static_cast<size_t>(count));
    }
}

bool FakePodman::nextCommand(int fd, Command& command)
{
    for (;;) {
        {
            std::lock_guard lock(mutex_);
            if (stopping_)
                return false;
            if (!commands_.empty()) {
                command = std::move(commands_.front());
                commands_.pop_front();
                return true;
            }
        }
        pollfd fds[] = {{fd, POLLIN, 0}, {wakeRead_, POLLIN, 0}};
        poll(fds, 2, -1);
        drain(wakeRead_);
        char byte;
        // The client sends nothing more on a stream; readable means closed.
        if ((fds[0].revents & (POLLIN | POLLHUP | POLLERR)) && recv(fd, &byte, 1, MSG_DONTWAIT) <= 0)
            return false;
    }
}

void FakePodman::Connection::write(std::string_view bytes)
{
    while (!bytes.empty()) {
        const ssize_t count = send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
        if (count <= 0)
            return;  // the client went away: nothing more to tell it
        bytes.remove_prefix(static_cast<size_t>(count));
    }
}

void FakePodman::Connection::sendStreamHeader()
{
    write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n");
}

void FakePodman::Connection::sendChunk(std::string_view data)
{
    char size[32];
    std::snprintf(size, sizeof size, "%zx\r\n", data.size());
    write(size);
    write(data);
    write("\r\n");
}

void FakePodman::Connection::sendLastChunk()
{
    write("0\r\n\r\n");
}

void FakePodman::Connection::holdOpen()
{
    Command command;
    while (fake_.nextCommand(fd_, command)) {
        if (command.hangUp)
            return;
        sendChunk(command.chunk);
    }
}

}  // namespace resized::test
