#include "runtime/names.h"

#include <algorithm>
#include <cctype>

namespace resized::runtime {

bool couldNameContainerOrPod(std::string_view nameOrId)
{
    auto isAlnum = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; };
    if (nameOrId.empty() || !isAlnum(nameOrId.front()))
        return false;
    return std::all_of(nameOrId.begin(), nameOrId.end(),
                       [&](char c) { return isAlnum(c) || c == '_' || c == '.' || c == '-'; });
}

bool couldBeIdPrefix(std::string_view nameOrId)
{
    auto isLowerHex = [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); };
    return nameOrId.size() >= kShortestIdPrefix && std::all_of(nameOrId.begin(), nameOrId.end(), isLowerHex);
}

bool namesExactly(std::string_view nameOrId, std::string_view id, std::string_view name)
{
    return nameOrId == name || nameOrId == id || (couldBeIdPrefix(nameOrId) && id.starts_with(nameOrId));
}

}  // namespace resized::runtime
