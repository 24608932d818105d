#pragma once

#include <sdbus-c++/sdbus-c++.h>

#include "bus/authorization.h"
#include "plan_adaptor.h"
#include "service/plans.h"

namespace resized::bus {

// /io/resized1/plan/<id>: one plan, as systemd shows one job.
class PlanObject final
    : public sdbus::AdaptorInterfaces<io::resized1::Plan_adaptor, sdbus::ManagedObject_adaptor,
                                      sdbus::Properties_adaptor> {
public:
    PlanObject(sdbus::IConnection& connection, service::Plans& plans, ChangeAuthorization& authorization,
               store::PlanRecord plan);
    ~PlanObject();

    // Takes the plan as it is now and emits PropertiesChanged for what changed.
    void refresh(const store::PlanRecord& plan);

private:
    void Cancel() override;
    uint64_t Id() override { return static_cast<uint64_t>(plan_.id); }
    std::string State() override { return std::string(core::toString(plan_.state)); }
    std::string Reason() override { return std::string(core::toString(plan_.reason)); }
    std::string Message() override { return plan_.message; }
    std::vector<sdbus::Struct<std::string, std::map<std::string, sdbus::Variant>>> Changes() override;
    uint64_t SubmittedAtUSec() override { return plan_.submittedAtUsec; }
    uint64_t FinishedAtUSec() override { return plan_.finishedAtUsec; }

    service::Plans& plans_;
    ChangeAuthorization& authorization_;
    store::PlanRecord plan_;
};

}  // namespace resized::bus
