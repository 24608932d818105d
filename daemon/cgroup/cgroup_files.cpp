#include "cgroup/cgroup_files.h"

#include <fcntl.h>
#include <linux/magic.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <system_error>

#include "cgroup/limits_backend.h"

namespace resized::cgroup {

namespace {

[[noreturn]] void throwSystemError(std::string_view operation, const std::filesystem::path& path,
                                   int error)
{
    throw CgroupError(std::string(operation) + ' ' + path.string() + ": " + std::strerror(error),
                      error);
}


bool isWithin(const std::filesystem::path& path, const std::filesystem::path& root)
{
    const auto relative = path.lexically_relative(root);
    return !relative.empty() && *relative.begin() != "..";
}

[[noreturn]] void refusePath(std::string_view cgroup, const std::string& reason)
{
    const auto printable = cgroup.substr(0, cgroup.find('\0'));
    throw CgroupError("refusing cgroup path \"" + std::string(printable) + "\": " + reason);
}

std::filesystem::path resolveSymlinks(const std::filesystem::path& path)
{
    // realpath(3) is one pass over the components; weakly_canonical, needed
    // only for a path that does not exist (yet), stats every prefix first.
    // This runs for every cgroup file resized reads or writes.
    if (const std::unique_ptr<char, decltype(&std::free)> real(::realpath(path.c_str(), nullptr), &std::free);
        real)
        return real.get();
    if (errno != ENOENT && errno != ENOTDIR)
        throwSystemError("resolve", path, errno);
    std::error_code error;
    auto resolved = std::filesystem::weakly_canonical(path, error);
    if (error)
        throw CgroupError("resolve " + path.string() + ": " + error.message(), error.value());
    return resolved;
}

// The real path of `lexicalRoot` when it is a cgroup file system, remembered
// for the daemon's life: the mounts under /sys/fs/cgroup and their symlinks
// (cpu -> cpu,cpuacct) are made once at boot. Nothing else is remembered: a
// root that is not a cgroup mount (yet) is looked at again next time.
// Keyed by the root's spelling: comparing std::filesystem::path keys walks
// their components, and this is asked for every cgroup file.
std::optional<std::filesystem::path> realCgroupMount(const std::filesystem::path& lexicalRoot)
{
    static std::mutex mutex;
    static std::map<std::string, std::filesystem::path, std::less<>> mounts;
    const std::lock_guard lock(mutex);
    if (const auto known = mounts.find(lexicalRoot.native()); known != mounts.end())
        return known->second;
    struct statfs filesystem {};
    if (statfs(lexicalRoot.c_str(), &filesystem) != 0 ||
        (filesystem.f_type != CGROUP_SUPER_MAGIC && filesystem.f_type != CGROUP2_SUPER_MAGIC))
        return std::nullopt;
    return mounts.emplace(lexicalRoot.native(), resolveSymlinks(lexicalRoot)).first->second;
}

// A cgroup path as the runtimes and the kernel spell it: "/", or names
// each after a single "/", none of them "." or "..", no "/" at the end.
// Its lexical form is itself.
bool isPlainCgroupPath(std::string_view cgroup)
{
    if (cgroup == "/")
        return true;
    if (cgroup.empty() || cgroup.front() != '/' || cgroup.back() == '/')
        return false;
    for (size_t start = 1; start <= cgroup.size();) {
        const size_t end = std::min(cgroup.find('/', start), cgroup.size());
        const std::string_view name = cgroup.substr(start, end - start);
        if (name.empty() || name == "." || name == "..")
            return false;
        start = end + 1;
    }
    return true;
}

// The whole file, read with pread(2) from offset 0 (which makes the kernel
// produce a cgroup file afresh); false with errno set when a read fails.
bool readWhole(const FileDescriptor& file, std::string& content)
{
    content.clear();
    char buffer[4096];
    while (true) {
        const ssize_t count = pread(file.get(), buffer, sizeof buffer, static_cast<off_t>(content.size()));
        if (count < 0 && errno == EINTR)
            continue;
        if (count < 0)
            return false;
        content.append(buffer, static_cast<size_t>(count));
        // The kernel makes such a file in one piece and hands out as much
        // of it as fits: a read that leaves room in the buffer read it all,
        // and the read(2) that would say so costs as much as this one.
        if (static_cast<size_t>(count) < sizeof buffer)
            return true;
    }
}

// Only there does a file made again at its path make the one held before
// read ENODEV; elsewhere (a test's tree) the old one would still read.
bool onCgroupFileSystem(const FileDescriptor& file)
{
    struct statfs filesystem {};
    return fstatfs(file.get(), &filesystem) == 0 &&
           (filesystem.f_type == CGROUP_SUPER_MAGIC || filesystem.f_type == CGROUP2_SUPER_MAGIC);
}

}  // namespace

FileDescriptor::~FileDescriptor()
{
    if (fd_ >= 0)
        close(fd_);
}

FileDescriptor openFile(const std::filesystem::path& path, int flags)
{
    const int fd = open(path.c_str(), flags | O_CLOEXEC);
    if (fd < 0)
        throwSystemError("open", path, errno);
    return FileDescriptor(fd);
}

std::string readFile(const std::filesystem::path& path)
{
    std::string content;
    if (!readWhole(openFile(path, O_RDONLY), content))
        throwSystemError("read", path, errno);
    return content;
}

std::optional<std::string> readFileIfExists(const std::filesystem::path& path)
{
    try {
        return readFile(path);
    } catch (const CgroupError& error) {
        if (error.error() == ENOENT)
            return std::nullopt;
        throw;
    }
}

std::optional<FileDescriptor> HeldFiles::open(const std::filesystem::path& path)
{
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd >= 0)
        return FileDescriptor(fd);
    if (errno == ENOENT)
        return std::nullopt;
    throwSystemError("open", path, errno);
}

std::optional<std::string> HeldFiles::readIfExists(const std::filesystem::path& path)
{
    const std::lock_guard lock(mutex_);
    std::string content;
    if (const auto held = files_.find(path.native()); held != files_.end()) {
        if (readWhole(held->second, content))
            return content;
        const int error = errno;
        files_.erase(held);
        // Its cgroup was removed: opened again by its path below.
        if (error != ENODEV)
            throwSystemError("read", path, error);
    }
    auto file = open(path);
    if (!file)
        return std::nullopt;
    if (!readWhole(*file, content))
        throwSystemError("read", path, errno);
    if (onCgroupFileSystem(*file)) {
        if (files_.size() >= capacity_)
            files_.clear();
        files_.emplace(path.native(), std::move(*file));
    }
    return content;
}

void writeFile(const std::filesystem::path& path, std::string_view content)
{
    writeFile(openFile(path, O_WRONLY | O_TRUNC), path, content);
}

void writeFile(const FileDescriptor& file, const std::filesystem::path& path, std::string_view content)
{
    ssize_t count;
    do
        count = write(file.get(), content.data(), content.size());
    while (count < 0 && errno == EINTR);
    if (count < 0)
        throwSystemError("write", path, errno);
    if (static_cast<size_t>(count) != content.size())
        throwSystemError("write", path, EIO);
}

std::filesystem::path resolveCgroupDirectory(const std::filesystem::path& root,
                                             std::string_view cgroup)
{
    if (cgroup.find('\0') != std::string_view::npos)
        refusePath(cgroup, "it holds a NUL byte");

    // The usual case, without building and normalizing paths (a tenth of
    // the daemon's CPU per UpdateResources, with a dozen resolutions each):
    // a plain path inside a cgroup mount is the mount's real path and the
    // path itself, as the general case below finds too.
    if (isPlainCgroupPath(cgroup))
        if (const auto mount = realCgroupMount(root)) {
            if (cgroup == "/")
                return *mount;
            std::string directory = mount->native();
            directory.append(directory.ends_with('/') ? cgroup.substr(1) : cgroup);
            return directory;
        }

    const std::filesystem::path relative(cgroup);
    for (const auto& component : relative)
        if (component == "..")
            refusePath(cgroup, "it holds \"..\"");

    const auto lexicalRoot = root.lexically_normal();
    const auto lexicalPath = (lexicalRoot / relative.relative_path()).lexically_normal();
    if (!isWithin(lexicalPath, lexicalRoot))
        refusePath(cgroup, "it leaves " + root.string());

    // No one can make a symlink inside a cgroup file system (the kernel has
    // no symlink() for it): there the lexical path is the real one, and
    // resolving it would cost a readlink per component on every file
    // resized reads or writes.
    if (const auto mount = realCgroupMount(lexicalRoot)) {
        auto relativeToRoot = lexicalPath.lexically_relative(lexicalRoot);
        // As realpath(3) gives it: no trailing "/", the root without "/.".
        if (relativeToRoot.has_relative_path() && !relativeToRoot.has_filename())
            relativeToRoot = relativeToRoot.parent_path();
        return relativeToRoot == "." ? *mount : *mount / relativeToRoot;
    }
    // Elsewhere a symlink inside the tree could still point out of it.
    const auto realRoot = resolveSymlinks(lexicalRoot);
    const auto realPath = resolveSymlinks(lexicalPath);
    if (!isWithin(realPath, realRoot))
        refusePath(cgroup, "it resolves to " + realPath.string() + ", outside " + realRoot.string());
    return realPath;
}

void requireCgroupDirectory(const std::filesystem::path& directory)
{
    if (!std::filesystem::is_directory(directory))
        throw CgroupError("no cgroup at " + directory.string(), ENOENT);
}

std::filesystem::path resolveParentDirectory(const std::filesystem::path& root,
                                             std::string_view cgroup)
{
    const auto directory = resolveCgroupDirectory(root, cgroup);
    const auto lexicalRoot = root.lexically_normal();
    const auto mount = realCgroupMount(lexicalRoot);
    if (directory == (mount ? *mount : resolveSymlinks(lexicalRoot)))
        return directory;
    return directory.parent_path();
}

std::vector<std::string> childCgroupsIn(const std::filesystem::path& directory, const std::string& cgroup)
{
    std::vector<std::string> children;
    std::error_code error;
    // A cgroup removed while it is read has no children left to take along.
    for (const auto& entry : std::filesystem::directory_iterator(directory, error))
        if (entry.is_directory(error))
            children.push_back((cgroup == "/" ? "" : cgroup) + "/" + entry.path().filename().string());
    std::sort(children.begin(), children.end());
    return children;
}

}  // namespace resized::cgroup
