#include "service/node_workloads.h"

#include <map>
#include <utility>

#include "service/errors.h"

namespace resized::service {

NodeWorkloads::NodeWorkloads(BackgroundListing& listing, store::StateStore& store, cgroup::DriverSelector& drivers)
    : listing_(listing), store_(store), drivers_(drivers)
{
}

void NodeWorkloads::list(Answer<std::vector<NodeWorkload>> done)
{
    listing_.list([this, done = std::move(done)](const BackgroundListing::Result& result) {
        // Without Podman, what resized manages is still known, as
        // GetResourceStatus answers from the store then; RuntimeConnected
        // tells clients that the others are missing.
        const auto* listed = std::get_if<std::vector<Instance>>(&result);
        try {
            done(combine(listed ? *listed : std::vector<Instance>{}));
        } catch (const store::StoreError& error) {
            done(ResizeError(ErrorCode::Failed, std::string("the state could not be read: ") + error.what()));
        }
    });
}

core::Resources NodeWorkloads::readNow(const std::string& cgroupPath)
{
    try {
        return drivers_.forCgroup(cgroupPath).read(cgroupPath);
    } catch (const cgroup::CgroupError&) {
        return {};
    }
}

std::vector<NodeWorkload> NodeWorkloads::combine(const std::vector<Instance>& listed)
{
    std::map<std::string, NodeWorkload> byName;
    // The records first: a managed workload is shown as resized follows it,
    // the same state its status has.
    for (const auto& record : store_.workloads())
        byName.emplace(record.name, NodeWorkload{
                                        .name = record.name,
                                        .kind = record.kind,
                                        .managed = true,
                                        .pod = record.pod,
                                        .pool = record.pool(),
                                        .runState = record.runState,
                                        .actual = record.hasCgroup() ? readNow(record.cgroupPath) : core::Resources{},
                                    });
    for (const auto& instance : listed) {
        const std::string name = instance.name.canonical();
        if (byName.contains(name))
            continue;
        byName.emplace(name, NodeWorkload{
                                 .name = name,
                                 .kind = instance.name.kind,
                                 .managed = false,
                                 .pod = instance.pod,
                                 .pool = instance.poolLabel,
                                 .runState = instance.state,
                                 .actual = instance.hasCgroup() ? readNow(instance.cgroupPath) : core::Resources{},
                             });
    }
    std::vector<NodeWorkload> workloads;
    workloads.reserve(byName.size());
    for (auto& [name, workload] : byName)
        workloads.push_back(std::move(workload));
    return workloads;
}

}  // namespace resized::service
