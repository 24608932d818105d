#pragma once

#include "support/command.h"
#include "support/test_environment.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace resized::integration
{

// The podman command line, working on the private storage of the test
// environment (CONTAINERS_CONF and CONTAINERS_STORAGE_CONF are inherited).
// What every test does again and again (a container's cgroup, the removal
// of a ScopedContainer) goes to the environment's API service instead: a
// podman command starts Go and opens the store each time, which costs a
// few tenths of a second of CPU, more than the request itself.
class PodmanCli
{
  public:
    explicit PodmanCli(const TestEnvironment& environment);

    CommandResult run(const std::vector<std::string>& arguments) const;

    // Starts a detached container of the test image; returns its full ID.
    // Throws std::runtime_error when podman fails.
    std::string runContainer(const std::string& name,
                             const std::vector<std::string>& extraArguments = {},
                             const std::vector<std::string>& command =
                                 idleCommand()) const;

    // `podman rm --force --time 0`; true when podman succeeded.
    bool remove(const std::string& name) const;

    // `podman inspect --format FORMAT`, without the trailing newline.
    std::string inspect(const std::string& name, const std::string& format) const;

    // The container's cgroup relative to each hierarchy's root, as
    // `podman inspect` reports it (asked of the API service).
    std::filesystem::path cgroupPath(const std::string& name) const;
    // What the container wrote to its standard output, every run's, as
    // `podman logs` shows it (asked of the API service).
    std::string logs(const std::string& name) const;
    // `podman rm --force --ignore --time 0 NAME...` through the API service,
    // or the command itself when the service does not answer; true once
    // nothing named is left.
    bool removeIgnoringMissing(const std::vector<std::string>& names,
                               std::string& error) const;

    // Idles until SIGTERM, ending at once on it (`sleep` as PID 1 ignores it).
    static std::vector<std::string> idleCommand();

    // Fills a tmpfs with mebibytes MiB, which stay charged to the container's
    // memory cgroup, then idles as idleCommand() does. The tmpfs is the
    // container's /dev/shm; run it with shmSizeArgument(mebibytes).
    static std::vector<std::string> memoryHolderCommand(std::uint64_t mebibytes);
    static std::string shmSizeArgument(std::uint64_t mebibytes);

  private:
    std::string image_;
    std::filesystem::path socket_;
};

// A container removed (`podman rm --force --time 0`) when this goes out of
// scope, whatever the test did: a container left behind would count in the
// allocation every later test checks. Removal is retried; a container that
// stays is reported as a failure of the test that made it.
class ScopedContainer
{
  public:
    ScopedContainer(const PodmanCli& podman, std::string name,
                    const std::vector<std::string>& extraArguments = {},
                    const std::vector<std::string>& command =
                        PodmanCli::idleCommand());
    ScopedContainer(const ScopedContainer&) = delete;
    ScopedContainer& operator=(const ScopedContainer&) = delete;
    ~ScopedContainer();

    // A container holding mebibytes MiB of memory (see memoryHolderCommand()).
    static ScopedContainer
        holdingMemory(const PodmanCli& podman, std::string name,
                      std::uint64_t mebibytes,
                      std::vector<std::string> extraArguments = {});

    const std::string& name() const { return name_; }
    const std::string& id() const { return id_; }
    std::filesystem::path cgroupPath() const;

  private:
    // Removes what holds the name now and the container this made (which
    // a test may have renamed), retrying until podman manages.
    void removeOrReport() const;

    PodmanCli podman_;
    std::string name_;
    std::string id_;
};

} // namespace resized::integration
