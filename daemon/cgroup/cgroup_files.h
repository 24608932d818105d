#pragma once

#include <filesystem>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace resized::cgroup {

// An open file, closed when it goes.
class FileDescriptor {
public:
    explicit FileDescriptor(int fd) : fd_(fd) {}
    FileDescriptor(FileDescriptor&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
    FileDescriptor& operator=(FileDescriptor&& other) noexcept
    {
        std::swap(fd_, other.fd_);
        return *this;
    }
    ~FileDescriptor();

    int get() const { return fd_; }

private:
    int fd_;
};

// open(2) with O_CLOEXEC; throws CgroupError with the errno.
FileDescriptor openFile(const std::filesystem::path& path, int flags);

// The whole content of a small file the kernel makes in one piece: a
// cgroup's interface files that hold one value or one table (not
// cgroup.procs, which it makes a line at a time), /proc/<pid>/cgroup, a
// regular file.
std::string readFile(const std::filesystem::path& path);

// As readFile, but nullopt when the file does not exist: a controller that
// is not enabled for a cgroup has no files there.
std::optional<std::string> readFileIfExists(const std::filesystem::path& path);

// Files read again and again, held open: each read is one pread(2) at
// offset 0, which makes the kernel produce the file afresh, with no path
// to resolve, nothing to open and nothing to close. A file whose cgroup was
// removed reads ENODEV; it is opened again by its path, which finds the
// cgroup made again there or nothing. At most `capacity` files are held,
// so that cgroups removed long ago are not kept alive by them: when it is
// full, all are closed. Only a cgroup file system's files are held: only
// there does a file made again make the one held read ENODEV. Safe to
// share between threads.
class HeldFiles {
public:
    explicit HeldFiles(size_t capacity) : capacity_(capacity) {}

    // As readFileIfExists(path), for a file readFile() may read.
    std::optional<std::string> readIfExists(const std::filesystem::path& path);

private:
    std::optional<FileDescriptor> open(const std::filesystem::path& path);

    size_t capacity_;
    std::mutex mutex_;
    std::unordered_map<std::string, FileDescriptor> files_;
};

// How many files a backend holds open for its read-backs: those of the few
// dozen workloads being changed, well within a service's 1,024 file
// descriptors.
inline constexpr size_t kHeldLimitFiles = 256;

// Writes `content` with a single write(2): the kernel parses each write to a
// cgroup file as one value, so a split write would set a wrong one.
void writeFile(const std::filesystem::path& path, std::string_view content);
// The same through a file already open (`path` names it in errors).
void writeFile(const FileDescriptor& file, const std::filesystem::path& path, std::string_view content);

// The directory of `cgroup` (as the runtime reports it, "/a/b") under
// `root`. Throws CgroupError for a path that holds "..", a NUL, or that leaves
// `root` lexically or through a symlink.
std::filesystem::path resolveCgroupDirectory(const std::filesystem::path& root,
                                             std::string_view cgroup);

// Throws CgroupError (ENOENT) unless `directory` exists: a missing cgroup
// must not read as one whose controllers are all disabled.
void requireCgroupDirectory(const std::filesystem::path& directory);

// The directory of the parent of `cgroup`; the root is its own parent.
std::filesystem::path resolveParentDirectory(const std::filesystem::path& root,
                                             std::string_view cgroup);

// The cgroups inside `directory`, the resolved directory of `cgroup`, as
// `cgroup` + "/" + their names, sorted; none when `directory` is gone.
std::vector<std::string> childCgroupsIn(const std::filesystem::path& directory, const std::string& cgroup);

}  // namespace resized::cgroup
