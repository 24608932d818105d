#include "scoped_mount.h"

#include <fcntl.h>
#include <sys/mount.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "support/unique_fd.h"

namespace resized::integration
{

namespace
{

[[noreturn]] void throwErrno(const std::string& what)
{
    throw std::runtime_error(what + ": " + std::strerror(errno));
}

} // namespace

ScopedMount ScopedMount::tmpfs(const std::filesystem::path& target, std::uint64_t sizeBytes)
{
    const std::string options = "size=" + std::to_string(sizeBytes) + ",mode=0755";
    if (::mount("resized-hostile", target.c_str(), "tmpfs", MS_NOSUID | MS_NODEV,
                options.c_str()) != 0)
    {
        throwErrno("mount tmpfs on " + target.string());
    }
    return ScopedMount(target);
}

ScopedMount ScopedMount::readOnlyBind(const std::filesystem::path& directory)
{
    if (::mount(directory.c_str(), directory.c_str(), nullptr, MS_BIND, nullptr) != 0)
    {
        throwErrno("bind mount " + directory.string());
    }
    ScopedMount bound(directory);
    if (::mount(nullptr, directory.c_str(), nullptr, MS_REMOUNT | MS_BIND | MS_RDONLY,
                nullptr) != 0)
    {
        throwErrno("remount " + directory.string() + " read-only");
    }
    return bound;
}

ScopedMount::ScopedMount(ScopedMount&& other) noexcept :
    target_(std::exchange(other.target_, {}))
{}

ScopedMount::~ScopedMount()
{
    if (!target_.empty() && ::umount2(target_.c_str(), MNT_DETACH) != 0)
    {
        std::cerr << "cannot unmount " << target_ << ": " << std::strerror(errno) << "\n";
    }
}

std::uint64_t fillFileSystem(const std::filesystem::path& file)
{
    const UniqueFd fd(::open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600));
    if (!fd)
    {
        throwErrno("open " + file.string());
    }
    const std::vector<char> zeros(4096, 0);
    std::uint64_t written = 0;
    while (true)
    {
        const ssize_t count = ::write(fd.get(), zeros.data(), zeros.size());
        if (count <= 0)
        {
            if (count < 0 && errno != ENOSPC)
            {
                throwErrno("write " + file.string());
            }
            return written;
        }
        written += static_cast<std::uint64_t>(count);
    }
}

} // namespace resized::integration
