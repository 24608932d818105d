#include "bus/workload_object.h"

#include "bus/object_path.h"

#include <spdlog/spdlog.h>

namespace resized::bus {

WorkloadObject::WorkloadObject(sdbus::IConnection& connection, WorkloadCommands& commands,
                               store::WorkloadRecord record)
    : AdaptorInterfaces(connection, workloadPath(record.name)),
      commands_(commands),
      record_(std::move(record))
{
    registerAdaptor();
    emitInterfacesAddedSignal({io::resized1::Workload_adaptor::INTERFACE_NAME});
}

WorkloadObject::~WorkloadObject()
{
    try {
        emitInterfacesRemovedSignal({io::resized1::Workload_adaptor::INTERFACE_NAME});
    } catch (const sdbus::Error& error) {
        spdlog::debug("{}: InterfacesRemoved not sent: {}", record_.name, error.what());
    }
    unregisterAdaptor();
}

void WorkloadObject::refresh(const store::WorkloadRecord& record)
{
    std::vector<std::string> changed;
    auto compare = [&changed](const char* property, const auto& before, const auto& after) {
        if (before != after)
            changed.emplace_back(property);
    };
    compare("ContainerId", record_.containerId, record.containerId);
    compare("CgroupPath", record_.cgroupPath, record.cgroupPath);
    compare("Desired", record_.desired, record.desired);
    compare("Actual", record_.actual, record.actual);
    compare("SyncState", record_.syncState, record.syncState);
    compare("UpdateState", record_.updateState, record.updateState);
    compare("Message", record_.message, record.message);
    compare("Generation", record_.generation, record.generation);
    compare("ObservedGeneration", record_.observedGeneration, record.observedGeneration);
    record_ = record;
    if (!changed.empty())
        emitPropertiesChangedSignal(io::resized1::Workload_adaptor::INTERFACE_NAME, changed);
}

void WorkloadObject::Update(sdbus::Result<Dictionary>&& result, Dictionary resources, Dictionary options)
{
    commands_.updateWorkload(*getObject().getCurrentlyProcessedMessage(), std::move(result),
                             record_.name, resources, options);
}

void WorkloadObject::Reconcile(sdbus::Result<>&& result)
{
    commands_.reconcileWorkload(*getObject().getCurrentlyProcessedMessage(), std::move(result), record_.name);
}

void WorkloadObject::Forget(sdbus::Result<>&& result)
{
    commands_.forgetWorkload(*getObject().getCurrentlyProcessedMessage(), std::move(result), record_.name);
}

}  // namespace resized::bus
