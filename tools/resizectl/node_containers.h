#pragma once

#include <string>
#include <vector>

namespace resized::ctl {

// The containers running on this machine, by name, as `resizectl list`
// shows besides the workloads resized manages. Asked of Podman's API service
// directly until the daemon lists them itself.

// RESIZED_PODMAN_SOCKET when set, else Podman's system socket.
std::string defaultPodmanSocket();

// Throws CommandError when Podman does not answer at `podmanSocket`.
std::vector<std::string> runningContainerNames(const std::string& podmanSocket);

}  // namespace resized::ctl
