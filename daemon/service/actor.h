#pragma once

#include <cstdint>
#include <string>

namespace resized::service {

// Who a change is made for, as the history records it (design.md §1b): a
// caller, or resized itself.
struct Actor {
    std::string name;   // "uid:N", "reconcile", "hook", "autoscale"
    uint32_t uid = 0;   // the caller's; 0 for resized's own changes

    static Actor caller(uint32_t uid) { return {"uid:" + std::to_string(uid), uid}; }
    // Drift repaired, limits re-applied to a container's new run, a
    // released allocation admitted again.
    static Actor reconcile() { return {"reconcile", 0}; }
    // Limits written for the OCI hook before a container's first instruction.
    static Actor hook() { return {"hook", 0}; }
    // A change the autoscaler decided.
    static Actor autoscale() { return {"autoscale", 0}; }
    // A change of plan `id`, submitted by `uid`.
    static Actor plan(int64_t id, uint32_t uid) { return {"plan:" + std::to_string(id), uid}; }
};

}  // namespace resized::service
