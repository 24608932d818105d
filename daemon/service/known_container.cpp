#include "service/known_container.h"

namespace resized::service {

Instance knownContainer(const store::WorkloadRecord& record, const std::string& id, core::RunState state,
                        std::string cgroupPath)
{
    return {
        .name = {core::WorkloadKind::Container, record.name},
        .id = id,
        .pod = record.pod,
        .state = state,
        .cgroupPath = std::move(cgroupPath),
        .createLimits = {},
        .poolLabel = record.poolLabel,
    };
}

std::optional<Instance> boundContainer(const store::WorkloadRecord& record)
{
    if (record.kind != core::WorkloadKind::Container || record.containerId.empty() ||
        record.runState != core::RunState::Running || record.cgroupPath.empty())
        return std::nullopt;
    return knownContainer(record, record.containerId, core::RunState::Running, record.cgroupPath);
}

}  // namespace resized::service
