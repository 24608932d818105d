#pragma once

#include "support/podman_cli.h"

#include <filesystem>
#include <string>

namespace resized::integration
{

// A pod, removed with everything in it when this goes out of scope, whatever
// the test did (a pod left behind fails the test). Without an infra container unless asked: only a pod with one
// has a cgroup of its own (`pod:NAME`).
class ScopedPod
{
  public:
    enum class Infra { without, with };

    // Throws std::runtime_error when podman cannot create it.
    ScopedPod(const PodmanCli& podman, std::string name, Infra infra = Infra::without);
    ScopedPod(const ScopedPod&) = delete;
    ScopedPod& operator=(const ScopedPod&) = delete;
    ~ScopedPod();

    const std::string& name() const { return name_; }
    // The pod's own cgroup, as Podman reports it (empty without an infra
    // container).
    std::filesystem::path cgroupPath() const;

  private:
    PodmanCli podman_;
    std::string name_;
};

} // namespace resized::integration
