#pragma once

#include <sdbus-c++/sdbus-c++.h>

#include "pool_adaptor.h"
#include "service/pools.h"

namespace resized::bus {

// /io/resized1/pool/<escaped name>: one pool.
class PoolObject final
    : public sdbus::AdaptorInterfaces<io::resized1::Pool_adaptor, sdbus::ManagedObject_adaptor,
                                      sdbus::Properties_adaptor> {
public:
    PoolObject(sdbus::IConnection& connection, service::Pools& pools, service::PoolStatus status);
    ~PoolObject();

    // Takes the new status and emits PropertiesChanged for what changed.
    void refresh(const service::PoolStatus& status);

private:
    std::string Name() override { return status_.pool.name; }
    uint64_t CpuCapacityMillis() override { return status_.pool.cap.cpuMillis; }
    uint64_t MemoryCapacity() override { return status_.pool.cap.memory; }
    uint64_t CpuAllocatedMillis() override { return status_.allocated.cpuMillis; }
    uint64_t MemoryAllocated() override { return status_.allocated.memory; }
    std::vector<std::string> Members() override { return status_.members; }
    std::vector<std::map<std::string, sdbus::Variant>> Budgets() override;
    // Read when asked, exact to the microsecond; announced within the budget
    // clock's accuracy when it changes with time alone.
    uint32_t AllowedDisruptions() override;

    service::Pools& pools_;
    service::PoolStatus status_;
};

}  // namespace resized::bus
