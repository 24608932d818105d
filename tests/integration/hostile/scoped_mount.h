#pragma once

#include <cstdint>
#include <filesystem>

namespace resized::integration
{

// A mount that a test made, detached (umount2 MNT_DETACH) when this goes out
// of scope, whatever the test did. with-testenv.sh unmounts anything left
// under its directory should the test process die first.
class ScopedMount
{
  public:
    // A tmpfs of sizeBytes over target: a file system that fills up.
    static ScopedMount tmpfs(const std::filesystem::path& target, std::uint64_t sizeBytes);
    // directory bound onto itself, read-only (as root, chmod is no obstacle).
    static ScopedMount readOnlyBind(const std::filesystem::path& directory);

    ScopedMount(ScopedMount&& other) noexcept;
    ScopedMount& operator=(ScopedMount&&) = delete;
    ScopedMount(const ScopedMount&) = delete;
    ScopedMount& operator=(const ScopedMount&) = delete;
    ~ScopedMount();

  private:
    explicit ScopedMount(std::filesystem::path target) : target_(std::move(target)) {}

    std::filesystem::path target_;
};

// Writes zeros to file until the file system is full; returns the bytes
// written.
std::uint64_t fillFileSystem(const std::filesystem::path& file);

} // namespace resized::integration
