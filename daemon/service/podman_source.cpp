#include "service/podman_source.h"

#include "runtime/podman_json.h"

namespace resized::service {
namespace {

// design.md §1b: `--label io.resized1.pool=NAME` puts a container or a pod
// in a pool.
std::string poolLabelOf(const runtime::Labels& labels)
{
    const auto label = labels.find("io.resized1.pool");
    return label == labels.end() ? std::string() : label->second;
}

}  // namespace

Instance instanceOf(const runtime::Container& container)
{
    return {
        .name = {core::WorkloadKind::Container, container.name},
        .id = container.id,
        .pod = container.podName,
        .state = !container.running ? core::RunState::Stopped
                 : container.paused ? core::RunState::Paused
                                    : core::RunState::Running,
        .cgroupPath = container.running ? container.cgroupPath : std::string(),
        .createLimits = container.createLimits,
        .poolLabel = poolLabelOf(container.labels),
    };
}

std::optional<Instance> PodmanContainerSource::find(const core::WorkloadName& name)
{
    try {
        // Exact: never a container whose ID merely starts with the name.
        const auto container = podman_.inspect(name.name);
        if (!container)
            return std::nullopt;
        return instanceOf(*container);
    } catch (const runtime::AmbiguousContainer& error) {
        throw AmbiguousName("\"" + name.name + "\" matches more than one container: " + error.what());
    } catch (const runtime::RuntimeUnavailable& error) {
        throw SourceUnavailable(std::string("Podman cannot be reached: ") + error.what());
    }
}

std::vector<Instance> PodmanContainerSource::list()
{
    std::vector<runtime::ListEntry> listing;
    try {
        listing = podman_.listSummaries();
    } catch (const runtime::RuntimeUnavailable& error) {
        throw SourceUnavailable(std::string("Podman cannot be reached: ") + error.what());
    }
    std::map<std::pair<std::string, pid_t>, Instance> seen;
    std::vector<Instance> instances;
    for (const auto& entry : listing) {
        if (!entry.running) {
            instances.push_back({
                .name = {core::WorkloadKind::Container, entry.name},
                .id = entry.id,
                .pod = entry.podName,
                .state = core::RunState::Stopped,
                .cgroupPath = {},
                .createLimits = {},
                .poolLabel = poolLabelOf(entry.labels),
            });
            continue;
        }
        const std::pair key{entry.id, entry.pid};
        auto known = seen_.find(key);
        if (known == seen_.end()) {
            std::optional<Instance> inspected;
            try {
                inspected = find({core::WorkloadKind::Container, entry.id});
            } catch (const AmbiguousName&) {
            }
            // Gone or stopped since the listing: the next pass sees it as it is.
            if (!inspected || !inspected->hasCgroup())
                continue;
            known = seen_.emplace(key, std::move(*inspected)).first;
        }
        // A rename, a pause and an unpause keep the ID and the PID.
        known->second.name.name = entry.name;
        known->second.state = entry.paused ? core::RunState::Paused : core::RunState::Running;
        instances.push_back(known->second);
        seen.insert(*known);
    }
    seen_ = std::move(seen);
    return instances;
}

Instance instanceOf(const runtime::Pod& pod)
{
    core::RunState state = core::RunState::Stopped;
    if (pod.state == runtime::PodState::Paused)
        state = core::RunState::Paused;
    else if (pod.state == runtime::PodState::Running || pod.state == runtime::PodState::Degraded)
        state = core::RunState::Running;
    return {
        .name = {core::WorkloadKind::Pod, pod.name},
        .id = pod.id,
        .pod = {},
        .state = state,
        // Podman reports the path of a stopped pod too; it has no cgroup then.
        .cgroupPath = state == core::RunState::Stopped ? std::string() : pod.cgroupPath,
        .createLimits = pod.createLimits,
        .poolLabel = poolLabelOf(pod.labels),
    };
}

std::optional<Instance> PodmanPodSource::find(const core::WorkloadName& name)
{
    try {
        const auto pod = podman_.inspectPod(name.name);
        if (!pod)
            return std::nullopt;
        return instanceOf(*pod);
    } catch (const runtime::AmbiguousContainer& error) {
        throw AmbiguousName("\"" + name.name + "\" matches more than one pod: " + error.what());
    } catch (const runtime::RuntimeUnavailable& error) {
        throw SourceUnavailable(std::string("Podman cannot be reached: ") + error.what());
    }
}

std::vector<Instance> PodmanPodSource::list()
{
    try {
        std::vector<Instance> instances;
        for (const auto& pod : podman_.listPods())
            instances.push_back(instanceOf(pod));
        return instances;
    } catch (const runtime::RuntimeUnavailable& error) {
        throw SourceUnavailable(std::string("Podman cannot be reached: ") + error.what());
    }
}

}  // namespace resized::service
