#pragma once

// A stand-in for Podman's API service on a unix socket, for what the real one
// cannot be made to do on cue: end a stream at a chosen moment, or put
// several events into one read.

#include <chrono>
#include <condition_variable>
#include <deque>
#include <filesystem>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "scratch_directory.h"

namespace resized::test {

class FakePodman {
public:
    // What the fake does with one connection once it read the request's
    // headers, on the fake's own thread; the connection closes when it
    // returns.
    class Connection {
    public:
        // The 200 header of a chunked answer, as Podman's event stream has.
        void sendStreamHeader();
        // One chunk of the body.
        void sendChunk(std::string_view data);
        // The last chunk: the answer is complete.
        void sendLastChunk();
        // Keeps the connection open, sending what the test push()es, until
        // the test calls hangUp(), the client closes or the fake goes.
        void holdOpen();

    private:
        friend class FakePodman;
        Connection(FakePodman& fake, int fd) : fake_(fake), fd_(fd) {}
        void write(std::string_view bytes);

        FakePodman& fake_;
        int fd_;
    };
    using Script = std::function<void(Connection& connection, unsigned index)>;

    explicit FakePodman(Script script);
    ~FakePodman();
    FakePodman(const FakePodman&) = delete;
    FakePodman& operator=(const FakePodman&) = delete;

    std::string socketPath() const { return (directory_.path() / "podman.sock").string(); }

    // Connections accepted so far, and when each was accepted.
    unsigned connections() const;
    std::vector<std::chrono::steady_clock::time_point> acceptTimes() const;

    // For the connection held open (or the next one to be): send data as
    // one chunk, or end the connection.
    void push(std::string data);
    void hangUp();

    // An event line as Podman 4.3 sends it.
    static std::string eventLine(const std::string& action, const std::string& id,
                                 const std::string& name);

private:
    struct Command {
        std::string chunk;
        bool hangUp = false;
    };

    void serve();
    void readRequestHeaders(int fd);
    // Waits for the test's next command; false when the client closed the
    // connection or the fake stops first.
    bool nextCommand(int fd, Command& command);
    void wake();

    ScratchDirectory directory_;
    Script script_;
    int listener_ = -1;
    int wakeRead_ = -1;
    int wakeWrite_ = -1;
    mutable std::mutex mutex_;
    std::deque<Command> commands_;
    std::vector<std::chrono::steady_clock::time_point> acceptTimes_;
    bool stopping_ = false;
    std::thread thread_;
};

}  // namespace resized::test
