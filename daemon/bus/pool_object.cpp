#include "bus/pool_object.h"

#include "bus/errors_translation.h"
#include "bus/object_path.h"
#include "bus/variants.h"

#include <algorithm>
#include <limits>

#include <spdlog/spdlog.h>

namespace resized::bus {

PoolObject::PoolObject(sdbus::IConnection& connection, service::Pools& pools, service::PoolStatus status)
    : AdaptorInterfaces(connection, poolPath(status.pool.name)), pools_(pools), status_(std::move(status))
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
    compare("Budgets", status_.pool.budgets, status.pool.budgets);
    compare("AllowedDisruptions", status_.allowedDisruptions, status.allowedDisruptions);
    status_ = status;
    if (!changed.empty())
        emitPropertiesChangedSignal(io::resized1::Pool_adaptor::INTERFACE_NAME, changed);
}

std::vector<std::map<std::string, sdbus::Variant>> PoolObject::Budgets()
{
    return encodeBudgets(status_.pool.budgets);
}

uint32_t PoolObject::AllowedDisruptions()
{
    constexpr uint64_t kMost = std::numeric_limits<uint32_t>::max();
    return translatingErrors([&] {
        return static_cast<uint32_t>(
            std::min(pools_.status(status_.pool.name).allowedDisruptions.value_or(kMost), kMost));
    });
}

}  // namespace resized::bus
