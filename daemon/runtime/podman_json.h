#pragma once

// Pure parsers of the libpod REST API's answers (Podman 4.x, API v4.0.0).
// No I/O, so they are unit-tested on replies captured from a real Podman.

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <sys/types.h>
#include <vector>

#include "runtime/container.h"
#include "runtime/container_event.h"
#include "runtime/pod.h"

namespace resized::runtime {

// The body is not JSON, is truncated, or lacks a field or has a field of the
// wrong type.
class MalformedReply : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// GET /libpod/containers/{nameOrId}/json. The pod name is not part of it
// (only the pod's ID is): podName stays empty.
Container parseInspect(std::string_view body);

// One entry of GET /libpod/containers/json?all=true. The list carries no
// cgroup path and no limits.
struct ListEntry {
    std::string id;
    std::string name;
    std::string podId;
    std::string podName;
    bool running = false;  // as Container::running: running or paused
    bool paused = false;
    pid_t pid = 0;
    Labels labels;

    bool operator==(const ListEntry&) const = default;
};
std::vector<ListEntry> parseList(std::string_view body);

// GET /libpod/pods/{nameOrId}/json.
Pod parsePod(std::string_view body);

// GET /libpod/pods/json → the ID of every pod (the list lacks the cgroup
// path and the limits, which only the pod inspect has).
std::vector<std::string> parsePodIds(std::string_view body);

// The body libpod sends with every 4xx/5xx answer:
// {"cause": "...", "message": "...", "response": 404}. A streaming endpoint
// that fails after its 200 header sends one as a line of the stream.
struct ApiError {
    std::string cause;  // empty when the body is not such an object
    std::string message;
};
// Never throws: a body that is not such an object becomes the message itself.
// Of a body holding several such objects, one a line, the first counts.
ApiError parseApiError(std::string_view body);
// Podman answers an ambiguous short ID with the cause "container already
// exists" (404) or "pod already exists" (500, from Podman 4.3.1): "more than
// one result for ...".
bool isAmbiguousId(const ApiError& error);
// The container or pod is not there: 404 as a rule, but 500 when it goes
// between Podman finding its name and reading it from its database ("no pod
// with ID ... found in database: no such pod", a pod removed meanwhile).
bool isNoSuchObject(const ApiError& error);

// One line of GET /libpod/events?stream=true.
ContainerEvent parseEvent(std::string_view line);

// systemd's mapping of cgroup v1 cpu.shares to cgroup v2 cpu.weight
// (1024 → 100), clamped to the weight range; 0 shares means "not set".
uint64_t cpuSharesToWeight(uint64_t shares);

}  // namespace resized::runtime
