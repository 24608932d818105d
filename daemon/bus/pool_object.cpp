#include "bus/pool_object.h"

#include "bus/object_path.h"

#include <spdlog/spdlog.h>

namespace resized::bus {

PoolObject::PoolObject(sdbus::IConnection& connection, service::PoolStatus status)
    : AdaptorInterfaces(connection, poolPath(status.pool.name)), status_(std::move(status))
{
    registerAdaptor();
    emitInterfacesAddedSignal({io::resized1::Pool_adaptor::INTERFACE_NAME});
}

PoolObject::~PoolObject()
{
    try {
        emitInterfacesRemovedSignal({io::resized1::Pool_adaptor::INTERFACE_NAME});
    } catch (const sdbus::Error& error) {
        spdlog::debug("pool {}: InterfacesRemoved not sent: {}", status_.pool.name, error.what());
    }
    unregisterAdaptor();
}

void PoolObject::refresh(const service::PoolStatus& status)
{
    std::vector<std::string> changed;
    auto compare = [&changed](const char* property, const auto& before, const auto& after) {
        if (before != after)
            changed.emplace_back(property);
    };
    compare("CpuCapacityMillis", status_.pool.cap.cpuMillis, status.pool.cap.cpuMillis);
    compare("MemoryCapacity", status_.pool.cap.memory, status.pool.cap.memory);
    compare("CpuAllocatedMillis", status_.allocated.cpuMillis, status.allocated.cpuMillis);
    compare("MemoryAllocated", status_.allocated.memory, status.allocated.memory);
    compare("Members", status_.members, status.members);
    status_ = status;
    if (!changed.empty())
        emitPropertiesChangedSignal(io::resized1::Pool_adaptor::INTERFACE_NAME, changed);
}

}  // namespace resized::bus
