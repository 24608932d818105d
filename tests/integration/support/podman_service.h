#pragma once

#include "support/child_process.h"

#include <filesystem>
#include <optional>

namespace resized::integration
{

// A `podman system service` owned by one test, so that the test can kill it
// and bring it back. It inherits CONTAINERS_CONF and CONTAINERS_STORAGE_CONF,
// so it serves the same containers as the environment's own service and the
// podman command line. Destroying it kills the service.
class PodmanService
{
  public:
    // Starts the service on socket; throws std::runtime_error when it does
    // not answer within a bounded time.
    PodmanService(std::filesystem::path socket, std::filesystem::path logFile);
    PodmanService(const PodmanService&) = delete;
    PodmanService& operator=(const PodmanService&) = delete;
    ~PodmanService();

    const std::filesystem::path& socket() const { return socket_; }

    // SIGKILL: the service goes away without a goodbye, as in a crash.
    void kill();
    // Starts it again on the same socket after kill().
    void start();
    // SIGSTOP: the service takes connections (the kernel does) and answers
    // none, as a hung one would, until thaw().
    void freeze();
    void thaw();

  private:
    bool answers() const;

    std::filesystem::path socket_;
    std::filesystem::path logFile_;
    std::optional<ChildProcess> process_;
};

} // namespace resized::integration
