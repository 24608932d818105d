#pragma once

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "runtime/container.h"
#include "runtime/pod.h"
#include "runtime/podman_json.h"

namespace resized::runtime {

// Podman's API service could not be reached or answered with a server error.
class RuntimeUnavailable : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// An ID prefix of at least twelve hex digits that more than one container
// (or pod) starts with.
class AmbiguousContainer : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// A small client for Podman's libpod REST API (v4.0.0) over its unix socket.
// Calls are synchronous and bounded by a short timeout; each one is a
// loopback round trip of a few milliseconds.
class PodmanClient {
public:
    explicit PodmanClient(std::string socketPath);
    ~PodmanClient();
    PodmanClient(const PodmanClient&) = delete;
    PodmanClient& operator=(const PodmanClient&) = delete;

    // GET /_ping; false when the service does not answer.
    bool ping();

    // The container that nameOrId names exactly (runtime/names.h): by its
    // name, its full ID or a unique prefix of its ID of at least twelve hex
    // digits; nullopt when there is none. "b3" never lands on a container
    // whose ID starts with b3. Throws AmbiguousContainer (for a prefix of
    // twelve or more digits only), RuntimeUnavailable.
    std::optional<Container> inspect(const std::string& nameOrId);

    // Every container, running or not. Throws RuntimeUnavailable.
    std::vector<Container> list();
    // The same from one request, without inspecting each: no cgroup and no
    // create-time limits. Throws RuntimeUnavailable.
    std::vector<ListEntry> listSummaries();

    // The pod that nameOrId names exactly, by the same rule as inspect().
    // Throws AmbiguousContainer, RuntimeUnavailable.
    std::optional<Pod> inspectPod(const std::string& nameOrId);
    // Every pod, whatever its state. Throws RuntimeUnavailable.
    std::vector<Pod> listPods();

    const std::string& socketPath() const { return socketPath_; }

private:
    struct Impl;
    std::string socketPath_;
    std::unique_ptr<Impl> impl_;
};

}  // namespace resized::runtime
