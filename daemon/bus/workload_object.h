#pragma once

#include <string>

#include <sdbus-c++/sdbus-c++.h>

#include "bus/variants.h"
#include "store/state_store.h"
#include "workload_adaptor.h"

namespace resized::bus {

// The methods of io.resized1.Workload, carried out by the manager object for
// the workload's name.
class WorkloadCommands {
public:
    virtual ~WorkloadCommands() = default;
    // `call` is the method call being answered, for the caller's credentials.
    virtual void updateWorkload(const sdbus::Message& call, sdbus::Result<Dictionary>&& result,
                                const std::string& name, const Dictionary& resources,
                                const Dictionary& options) = 0;
    virtual void reconcileWorkload(const sdbus::Message& call, sdbus::Result<>&& result,
                                   const std::string& name) = 0;
    virtual void forgetWorkload(const sdbus::Message& call, sdbus::Result<>&& result, const std::string& name) = 0;
};

// /io/resized1/workload/<escaped name>: one workload resized knows.
class WorkloadObject final
    : public sdbus::AdaptorInterfaces<io::resized1::Workload_adaptor, sdbus::ManagedObject_adaptor,
                                      sdbus::Properties_adaptor> {
public:
    WorkloadObject(sdbus::IConnection& connection, WorkloadCommands& commands,
                   store::WorkloadRecord record);
    ~WorkloadObject();

    // Takes the new record and emits PropertiesChanged for what changed.
    void refresh(const store::WorkloadRecord& record);
    const store::WorkloadRecord& record() const { return record_; }

private:
    void Update(sdbus::Result<Dictionary>&& result, Dictionary resources, Dictionary options) override;
    void Reconcile(sdbus::Result<>&& result) override;
    void Forget(sdbus::Result<>&& result) override;

    std::string Name() override { return record_.name; }
    std::string ContainerId() override { return record_.containerId; }
    std::string CgroupPath() override { return record_.cgroupPath; }
    Dictionary Desired() override { return encodeResources(record_.desired); }
    Dictionary Actual() override { return encodeResources(record_.actual); }
    std::string SyncState() override { return std::string(core::toString(record_.syncState)); }
    std::string UpdateState() override { return std::string(core::toString(record_.updateState)); }
    std::string Message() override { return record_.message; }
    uint64_t Generation() override { return record_.generation; }
    uint64_t ObservedGeneration() override { return record_.observedGeneration; }

    WorkloadCommands& commands_;
    store::WorkloadRecord record_;
};

}  // namespace resized::bus
