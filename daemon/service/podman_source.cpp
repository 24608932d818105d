#include "service/podman_source.h"

#include <algorithm>
#include <cctype>

namespace resized::service {

bool namesContainerExactly(const std::string& asked, const runtime::Container& container)
{
    if (asked == container.name || asked == container.id)
        return true;
    constexpr size_t kShortIdLength = 12;
    const bool hex = std::all_of(asked.begin(), asked.end(),
                                 [](unsigned char c) { return std::isxdigit(c) && !std::isupper(c); });
    return hex && asked.size() >= kShortIdLength && container.id.starts_with(asked);
}

Instance instanceOf(const runtime::Container& container)
{
    return {
        .name = {core::WorkloadKind::Container, container.name},
        .id = container.id,
        .pod = container.podName,
        .state = container.running ? core::RunState::Running : core::RunState::Stopped,
        .cgroupPath = container.running ? container.cgroupPath : std::string(),
        .createLimits = container.createLimits,
    };
}

std::optional<Instance> PodmanContainerSource::find(const core::WorkloadName& name)
{
    try {
        // Podman also resolves any ID prefix, however short: checked below.
        const auto container = podman_.inspect(name.name);
        if (!container || !namesContainerExactly(name.name, *container))
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
        // A rename keeps the ID and the PID.
        known->second.name.name = entry.name;
        instances.push_back(known->second);
        seen.insert(*known);
    }
    seen_ = std::move(seen);
    return instances;
}

}  // namespace resized::service
