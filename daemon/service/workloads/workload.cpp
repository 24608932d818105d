#include "service/workloads/workload.h"

namespace resized::service {

std::optional<QueuedRequest> Workload::dequeue()
{
    if (waiting_.empty())
        return std::nullopt;
    QueuedRequest next = std::move(waiting_.front());
    waiting_.pop_front();
    return next;
}

Workload& Workloads::operator[](const std::string& name)
{
    auto& slot = byName_[name];
    if (!slot)
        slot = std::make_unique<Workload>(name);
    return *slot;
}

Workload* Workloads::find(const std::string& name)
{
    const auto found = byName_.find(name);
    return found == byName_.end() ? nullptr : found->second.get();
}

const Workload* Workloads::find(const std::string& name) const
{
    const auto found = byName_.find(name);
    return found == byName_.end() ? nullptr : found->second.get();
}

bool Workloads::busy(const std::string& name) const
{
    const Workload* workload = find(name);
    return workload && workload->busy();
}

void Workloads::release(const std::string& name)
{
    if (const auto found = byName_.find(name); found != byName_.end() && found->second->idle())
        byName_.erase(found);
}

ChangeSet& Workloads::begin(std::unique_ptr<ChangeSet> set)
{
    set->id = ++lastChangeSet_;
    for (const WorkloadChange& item : set->items)
        (*this)[item.record.name].change_ = set.get();
    // The others moved with a slice's change are not held up by it: what
    // is asked of them meanwhile is admitted against the slice as reserved.
    if (set->placementsOnly())
        for (const Placement& placement : set->placements)
            (*this)[placement.workload].change_ = set.get();
    return *changeSets_.emplace(set->id, std::move(set)).first->second;
}

ChangeSet* Workloads::changeSet(uint64_t id)
{
    const auto found = changeSets_.find(id);
    return found == changeSets_.end() ? nullptr : found->second.get();
}

std::unique_ptr<ChangeSet> Workloads::end(uint64_t id)
{
    auto node = changeSets_.extract(id);
    const auto free = [&](const std::string& name) {
        if (Workload* workload = find(name); workload && workload->change_ == node.mapped().get())
            workload->change_ = nullptr;
    };
    for (const WorkloadChange& item : node.mapped()->items)
        free(item.record.name);
    for (const Placement& placement : node.mapped()->placements)
        free(placement.workload);
    return std::move(node.mapped());
}

}  // namespace resized::service
