#pragma once

#include "support/podman_cli.h"

#include <string>

namespace resized::integration::events
{

// A pod without an infra container, removed with everything in it when this
// goes out of scope, whatever the test did.
class ScopedPod
{
  public:
    // Throws std::runtime_error when podman cannot create it.
    ScopedPod(const PodmanCli& podman, std::string name);
    ScopedPod(const ScopedPod&) = delete;
    ScopedPod& operator=(const ScopedPod&) = delete;
    ~ScopedPod();

    const std::string& name() const { return name_; }

  private:
    PodmanCli podman_;
    std::string name_;
};

} // namespace resized::integration::events
