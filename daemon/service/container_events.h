#pragma once

#include <cstdint>
#include <string>

namespace resized::service {

// What the runtime's event stream tells the node's logic, one call per
// lifecycle step of a container: its full ID and its (Podman) name. Podman
// holds a container locked while it is being created, started, stopped or
// restarted; asking Podman about it from an event would wait for that, and
// for the OCI hook that waits for resized meanwhile. Steps that say all
// there is to know (create, died, stop, remove) are taken as they come.
class ContainerEvents {
public:
    virtual ~ContainerEvents() = default;

    virtual void containerCreated(const std::string& id, const std::string& name) = 0;
    // start, restore: the container runs (again), in a cgroup that may be
    // new.
    virtual void containerStarted(const std::string& id, const std::string& name) = 0;
    // A frozen container keeps its cgroup and its memory.
    virtual void containerPaused(const std::string& id, const std::string& name) = 0;
    virtual void containerUnpaused(const std::string& id, const std::string& name) = 0;
    // died, stop: the container's cgroup is gone, the container is not.
    // `atUsec` is when Podman saw it: the stream may bring the stop of a
    // container's previous run after the OCI hook has prepared its next one.
    virtual void containerStopped(const std::string& id, const std::string& name, uint64_t atUsec) = 0;
    virtual void containerRemoved(const std::string& id, const std::string& name) = 0;
    // The container of `id` is now called `newName`.
    virtual void containerRenamed(const std::string& id, const std::string& newName) = 0;

    // The stream was (re)established: anything may have happened meanwhile.
    virtual void resynchronise() = 0;
    // The stream ended; Podman may be gone.
    virtual void runtimeLost() = 0;
};

}  // namespace resized::service
