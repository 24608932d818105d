#include "core/workload_name.h"

#include <array>
#include <utility>

namespace resized::core {
namespace {

constexpr std::array<std::pair<WorkloadKind, std::string_view>, 3> kKindNames{{
    {WorkloadKind::Container, "container"},
    {WorkloadKind::Pod, "pod"},
    {WorkloadKind::Unit, "unit"},
}};

}  // namespace

std::string_view toString(WorkloadKind kind)
{
    for (const auto& [candidate, name] : kKindNames)
        if (candidate == kind)
            return name;
    return "container";
}

std::optional<WorkloadKind> parseWorkloadKind(std::string_view text)
{
    for (const auto& [kind, name] : kKindNames)
        if (name == text)
            return kind;
    return std::nullopt;
}

std::string WorkloadName::canonical() const
{
    if (kind == WorkloadKind::Container)
        return name;
    return std::string(toString(kind)) + ":" + name;
}

std::optional<WorkloadName> parseWorkloadName(std::string_view text)
{
    const auto colon = text.find(':');
    if (colon == std::string_view::npos) {
        if (text.empty())
            return std::nullopt;
        return WorkloadName{WorkloadKind::Container, std::string(text)};
    }
    const auto kind = parseWorkloadKind(text.substr(0, colon));
    const std::string_view name = text.substr(colon + 1);
    if (!kind || name.empty())
        return std::nullopt;
    return WorkloadName{*kind, std::string(name)};
}

}  // namespace resized::core
