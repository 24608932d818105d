#pragma once

#include <string>

#include "core/resources.h"
#include "service/errors.h"
#include "store/state_store.h"

namespace resized::service {

// What the bus layer is told; every call comes from the event loop.
class ManagerObserver {
public:
    virtual ~ManagerObserver() = default;
    virtual void workloadChanged(const store::WorkloadRecord& record) = 0;
    virtual void workloadForgotten(const std::string& name) = 0;
    virtual void budgetChanged() = 0;
    virtual void runtimeConnectionChanged(bool connected) = 0;
    virtual void resourcesApplied(const std::string& name, const core::Resources& actual) = 0;
    virtual void driftDetected(const std::string& name, const core::Resources& desired,
                               const core::Resources& actual) = 0;
    virtual void updateFailed(const std::string& name, ErrorCode code, const std::string& message) = 0;
    // A change that lowered a pool's member was applied (or admitted for a
    // stopped one): one disruption more against its budgets.
    virtual void poolDisrupted(const store::Disruption& disruption) = 0;
};

// Fans the node's news out to the observer, when there is one.
class Announcer {
public:
    void setObserver(ManagerObserver* observer) { observer_ = observer; }

    // A record changed, and with it maybe the budget.
    void changed(const store::WorkloadRecord& record)
    {
        if (!observer_)
            return;
        observer_->workloadChanged(record);
        observer_->budgetChanged();
    }
    void forgotten(const std::string& name)
    {
        if (!observer_)
            return;
        observer_->workloadForgotten(name);
        observer_->budgetChanged();
    }
    void budgetChanged()
    {
        if (observer_)
            observer_->budgetChanged();
    }
    void runtimeConnection(bool connected)
    {
        if (observer_)
            observer_->runtimeConnectionChanged(connected);
    }
    void applied(const std::string& name, const core::Resources& actual)
    {
        if (observer_)
            observer_->resourcesApplied(name, actual);
    }
    void drift(const std::string& name, const core::Resources& desired, const core::Resources& actual)
    {
        if (observer_)
            observer_->driftDetected(name, desired, actual);
    }
    void failed(const std::string& name, ErrorCode code, const std::string& message)
    {
        if (observer_)
            observer_->updateFailed(name, code, message);
    }
    void disrupted(const store::Disruption& disruption)
    {
        if (observer_)
            observer_->poolDisrupted(disruption);
    }

private:
    ManagerObserver* observer_ = nullptr;
};

}  // namespace resized::service
