// What a pool's removal does to the changes waiting to join it.

#include <spdlog/spdlog.h>

#include "service/resource_manager.h"

namespace resized::service {
namespace {

std::string whyWithdrawn(const store::DeferredUpdate& update)
{
    return "pool " + update.pool.value_or("") + " was removed while the change waited to join it";
}

}  // namespace

// A change deferred with the Pool option waits to join that pool. Once the
// pool is removed (over D-Bus, or with its file) there is nothing to join:
// its members left it (design.md §1b), and UpdateResources would refuse the
// option now with NoSuchPool. So is the waiting change, in the workload's
// status, its history and UpdateFailed, instead of joining nothing later.
void ResourceManager::withdrawJoinsOfRemovedPools()
{
    std::vector<store::DeferredUpdate> withdrawn;
    std::vector<store::WorkloadRecord> changed;
    const uint64_t now = nowUsec();
    try {
        store::WriteTransaction transaction(store_.database());
        for (const auto& update : store_.deferredUpdates()) {
            if (!update.pool || update.pool->empty() || store_.findPool(*update.pool) ||
                !store_.removeDeferred(update.workload, update.actor))
                continue;
            withdrawn.push_back(update);
            auto record = store_.find(update.workload);
            if (record && record->updateState == core::UpdateState::Deferred) {
                record->updateState = core::UpdateState::Failed;
                record->message = whyWithdrawn(update);
                record->updatedAtUsec = now;
                store_.save(*record);
                changed.push_back(std::move(*record));
            }
        }
        transaction.commit();
    } catch (const store::StoreError& error) {
        spdlog::error("cannot withdraw the deferred changes of removed pools: {}", error.what());
        return;
    }
    for (const auto& update : withdrawn) {
        const std::string message = whyWithdrawn(update);
        spdlog::info("{}: {}", update.workload, message);
        recordHistory(update.workload, Actor{update.actor, update.callerUid}, "update", update.request,
                      toString(ErrorCode::NoSuchPool), message, update.createdAtUsec);
        announcer_.failed(update.workload, ErrorCode::NoSuchPool, message);
    }
    for (const auto& record : changed)
        announcer_.changed(record);
}

}  // namespace resized::service
