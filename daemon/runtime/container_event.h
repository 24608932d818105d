#pragma once

#include <cstdint>
#include <string>

namespace resized::runtime {

// One line of Podman's event stream, reduced to what reconciliation needs.
struct ContainerEvent {
    std::string type;    // "container" with the stream's filter
    std::string action;  // create, init, start, restart, died, stop, remove, cleanup, ...
    std::string containerId;
    std::string containerName;  // empty when the event carries no name
    uint64_t timeNano = 0;

    bool operator==(const ContainerEvent&) const = default;
};

}  // namespace resized::runtime
