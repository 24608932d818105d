#include "store/state_directory_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <charconv>
#include <optional>
#include <string>
#include <system_error>

namespace resized::store {
namespace {

[[noreturn]] void failWith(int error, const std::filesystem::path& file, const char* what)
{
    throw std::system_error(error, std::generic_category(), std::string(what) + " " + file.string());
}

// The PID the holder wrote; empty before it wrote one.
std::optional<pid_t> holderOf(int fd)
{
    std::array<char, 32> text{};
    const ssize_t length = pread(fd, text.data(), text.size(), 0);
    pid_t pid = 0;
    if (length <= 0 ||
        std::from_chars(text.data(), text.data() + length, pid).ec != std::errc() || pid <= 0)
        return std::nullopt;
    return pid;
}

void writePid(int fd, const std::filesystem::path& file)
{
    const std::string pid = std::to_string(getpid()) + "\n";
    if (ftruncate(fd, 0) != 0 ||
        pwrite(fd, pid.data(), pid.size(), 0) != static_cast<ssize_t>(pid.size()))
        failWith(errno, file, "cannot write the PID into");
}

}  // namespace

StateDirectoryLock::StateDirectoryLock(const std::filesystem::path& directory)
{
    const auto file = directory / "lock";
    fd_ = open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
    // A read-only state directory is still locked, through the file an earlier
    // daemon left there, with no PID written: what cannot be done there is
    // for the store to tell.
    const bool readOnly = fd_ < 0 && errno == EROFS;
    if (readOnly)
        fd_ = open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd_ < 0)
        failWith(errno, file, "cannot open");
    try {
        if (flock(fd_, LOCK_EX | LOCK_NB) != 0) {
            if (errno != EWOULDBLOCK)
                failWith(errno, file, "cannot lock");
            const auto holder = holderOf(fd_);
            throw StateDirectoryBusy(
                "the state directory " + directory.string() + " is in use by another resized" +
                (holder ? " (PID " + std::to_string(*holder) + ")" : std::string()) +
                "; only one may run on a state directory");
        }
        if (!readOnly)
            writePid(fd_, file);
    } catch (...) {
        close(fd_);
        throw;
    }
}

StateDirectoryLock::~StateDirectoryLock() { close(fd_); }

}  // namespace resized::store
