#include "oci_state.h"

#include <limits>
#include <nlohmann/json.hpp>

namespace resized::hook {

OciState parseOciState(std::string_view json)
{
    const auto document = nlohmann::json::parse(json, nullptr, /*allow_exceptions=*/false);
    if (!document.is_object())
        throw InvalidState("the OCI state is not a JSON object");
    const auto id = document.find("id");
    if (id == document.end() || !id->is_string() || id->get_ref<const std::string&>().empty())
        throw InvalidState("the OCI state has no container \"id\"");
    const auto pid = document.find("pid");
    if (pid == document.end() || !pid->is_number_integer() || pid->get<int64_t>() <= 0 ||
        pid->get<int64_t>() > std::numeric_limits<pid_t>::max())
        throw InvalidState("the OCI state has no valid \"pid\" (it is given from the createRuntime stage on)");
    OciState state{.id = id->get<std::string>(), .pid = static_cast<pid_t>(pid->get<int64_t>()), .status = {},
                   .bundle = {}};
    if (const auto status = document.find("status"); status != document.end() && status->is_string())
        state.status = status->get<std::string>();
    if (const auto bundle = document.find("bundle"); bundle != document.end() && bundle->is_string())
        state.bundle = bundle->get<std::string>();
    return state;
}

}  // namespace resized::hook
