#include "node_containers.h"

#include <cstdlib>

#include "exit_status.h"
#include "runtime/podman_client.h"

namespace resized::ctl {

std::string defaultPodmanSocket()
{
    const char* socket = std::getenv("RESIZED_PODMAN_SOCKET");
    return socket && *socket ? socket : "/run/podman/podman.sock";
}

std::vector<std::string> runningContainerNames(const std::string& podmanSocket)
{
    std::vector<std::string> names;
    try {
        runtime::PodmanClient podman(podmanSocket);
        for (const auto& container : podman.listSummaries())
            if (container.running)
                names.push_back(container.name);
    } catch (const std::runtime_error& error) {
        throw CommandError(ExitStatus::RuntimeUnavailable, error.what());
    }
    return names;
}

}  // namespace resized::ctl
