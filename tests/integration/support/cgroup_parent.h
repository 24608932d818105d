#pragma once

#include <filesystem>
#include <string>

namespace resized::integration
{

// A cgroup parent of the test's own, /resized-test-<pid>-<label>, for
// `podman run --cgroup-parent`: the test may restrict it (and so make a
// write below it fail for real) without touching the parent every other
// container shares. Podman and runc create it in every v1 hierarchy; the
// destructor removes it there, children first, once the test's containers
// are gone (so destroy their ScopedContainers first).
class ScopedCgroupParent
{
  public:
    explicit ScopedCgroupParent(const std::string& label,
                                std::filesystem::path root = "/sys/fs/cgroup");
    ScopedCgroupParent(const ScopedCgroupParent&) = delete;
    ScopedCgroupParent& operator=(const ScopedCgroupParent&) = delete;
    ~ScopedCgroupParent();

    // As `podman run --cgroup-parent` takes it.
    const std::string& path() const { return path_; }
    // The parent's folder in one v1 hierarchy.
    std::filesystem::path directory(const std::string& controller) const;
    // Writes value into the parent's file of controller.
    void write(const std::string& controller, const std::string& file,
               const std::string& value) const;

  private:
    std::string path_;
    std::filesystem::path root_;
};

} // namespace resized::integration
