#include "id_prefix.h"

#include <algorithm>

namespace resized::ctl {

bool isShortIdPrefix(std::string_view typed)
{
    const auto isIdDigit = [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); };
    return !typed.empty() && typed.size() < kDaemonIdPrefixLength && std::all_of(typed.begin(), typed.end(), isIdDigit);
}

std::vector<WorkloadContainer> idPrefixMatches(std::string_view prefix,
                                               const std::vector<WorkloadContainer>& workloads)
{
    std::vector<WorkloadContainer> matches;
    for (const auto& workload : workloads) {
        const auto& [name, id] = workload;
        if (name == prefix)
            return {};
        if (!id.empty() && id.starts_with(prefix))
            matches.push_back(workload);
    }
    return matches;
}

}  // namespace resized::ctl
