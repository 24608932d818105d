#include "service/unheld_workloads.h"

#include <spdlog/spdlog.h>

#include <utility>

namespace resized::service {
namespace {

// The pool an unheld workload names: its record's Pool option (kept when its
// allocation was released), or else its label.
std::string poolNamed(const std::optional<store::WorkloadRecord>& record, const Instance& instance)
{
    return record && record->poolOption ? *record->poolOption : instance.poolLabel;
}

}  // namespace

UnheldWorkloads::UnheldWorkloads(Ledger& ledger, store::StateStore& store, cgroup::DriverSelector& drivers)
    : ledger_(ledger), store_(store), drivers_(drivers)
{
}

core::Amounts UnheldWorkloads::readHeld(const std::string& cgroupPath)
{
    return core::allocationOf(drivers_.forCgroup(cgroupPath).read(cgroupPath));
}

bool UnheldWorkloads::count(const Instance& instance, const core::Amounts& held)
{
    const std::string name = instance.name.canonical();
    cgroups_[name] = instance.cgroupPath;
    return ledger_.countUnheld(name, {held, poolNamed(store_.find(name), instance), instance.pod});
}

bool UnheldWorkloads::count(const Instance& instance)
{
    try {
        return count(instance, readHeld(instance.cgroupPath));
    } catch (const cgroup::CgroupError& error) {
        spdlog::warn("{}: cannot read its cgroup: {}", instance.name.canonical(), error.what());
        return false;
    }
}

bool UnheldWorkloads::drop(const std::string& name)
{
    cgroups_.erase(name);
    return ledger_.dropUnheld(name);
}

bool UnheldWorkloads::replace(const std::vector<Instance>& instances, const std::set<std::string>& kept)
{
    std::map<std::string, UnheldWorkload> unheld;
    std::map<std::string, std::string> cgroups;
    for (const auto& name : kept) {
        const auto counted = ledger_.unheld(name);
        const auto cgroup = cgroups_.find(name);
        if (counted && cgroup != cgroups_.end()) {
            unheld.emplace(name, *counted);
            cgroups.insert(*cgroup);
        }
    }
    for (const auto& instance : instances) {
        if (!instance.hasCgroup())
            continue;
        const std::string name = instance.name.canonical();
        const auto record = store_.find(name);
        if (record && record->holdsAllocation)
            continue;
        try {
            unheld.emplace(name,
                           UnheldWorkload{readHeld(instance.cgroupPath), poolNamed(record, instance), instance.pod});
            cgroups.emplace(name, instance.cgroupPath);
        } catch (const cgroup::CgroupError& error) {
            spdlog::warn("{}: cannot read its cgroup: {}", name, error.what());
        }
    }
    cgroups_ = std::move(cgroups);
    return ledger_.replaceUnheld(std::move(unheld));
}

void UnheldWorkloads::reread()
{
    constexpr auto kRereadInterval = std::chrono::seconds(1);
    const auto now = std::chrono::steady_clock::now();
    if (now - readAt_ < kRereadInterval)
        return;
    readAt_ = now;
    for (const auto& [name, cgroupPath] : cgroups_) {
        try {
            if (const auto counted = ledger_.unheld(name))
                ledger_.countUnheld(name, {readHeld(cgroupPath), counted->pool, counted->pod});
        } catch (const cgroup::CgroupError&) {
            // Gone with its container: the stop event or the next pass drops it.
        }
    }
}

}  // namespace resized::service
