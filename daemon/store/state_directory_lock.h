#pragma once

#include <filesystem>
#include <stdexcept>

namespace resized::store {

// Another daemon holds the state directory.
class StateDirectoryBusy : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// One daemon per state directory: an exclusive flock(2) on <directory>/lock,
// taken before the state is read or written and held for this object's
// life (the kernel drops it when the daemon dies, however it dies). A second
// daemon on the same directory would run crash recovery on the first one's
// updates in flight. The lock file holds the holder's PID, for the error
// (not on a read-only state directory, which is locked all the same).
class StateDirectoryLock {
public:
    // Throws StateDirectoryBusy naming the directory and, once the holder has
    // written it, the holder's PID; std::system_error when the lock file
    // cannot be opened or written.
    explicit StateDirectoryLock(const std::filesystem::path& directory);
    ~StateDirectoryLock();
    StateDirectoryLock(const StateDirectoryLock&) = delete;
    StateDirectoryLock& operator=(const StateDirectoryLock&) = delete;

private:
    int fd_;
};

}  // namespace resized::store
