#include "bus/plan_object.h"

#include <spdlog/spdlog.h>

#include "bus/errors_translation.h"
#include "bus/object_path.h"
#include "bus/variants.h"

namespace resized::bus {

PlanObject::PlanObject(sdbus::IConnection& connection, service::Plans& plans, ChangeAuthorization& authorization,
                       store::PlanRecord plan)
    : AdaptorInterfaces(connection, planPath(plan.id)),
      plans_(plans),
      authorization_(authorization),
      plan_(std::move(plan))
{
    registerAdaptor();
    emitInterfacesAddedSignal({io::resized1::Plan_adaptor::INTERFACE_NAME});
}

PlanObject::~PlanObject()
{
    try {
        emitInterfacesRemovedSignal({io::resized1::Plan_adaptor::INTERFACE_NAME});
    } catch (const sdbus::Error& error) {
        spdlog::debug("plan {}: InterfacesRemoved not sent: {}", plan_.id, error.what());
    }
    unregisterAdaptor();
}

void PlanObject::refresh(const store::PlanRecord& plan)
{
    std::vector<std::string> changed;
    auto compare = [&changed](const char* property, const auto& before, const auto& after) {
        if (before != after)
            changed.emplace_back(property);
    };
    compare("State", plan_.state, plan.state);
    compare("Reason", plan_.reason, plan.reason);
    compare("Message", plan_.message, plan.message);
    compare("FinishedAtUSec", plan_.finishedAtUsec, plan.finishedAtUsec);
    plan_ = plan;
    if (!changed.empty())
        emitPropertiesChangedSignal(io::resized1::Plan_adaptor::INTERFACE_NAME, changed);
}

void PlanObject::Cancel()
{
    translatingErrors([&] {
        authorization_.requireChangePermission(*getObject().getCurrentlyProcessedMessage());
        plans_.cancel(plan_.id);
    });
}

std::vector<sdbus::Struct<std::string, std::map<std::string, sdbus::Variant>>> PlanObject::Changes()
{
    return encodePlanChanges(plan_.changes);
}

}  // namespace resized::bus
