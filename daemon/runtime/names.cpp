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

namespace {

bool allLowerHex(std::string_view text)
{
    return std::all_of(text.begin(), text.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

}  // namespace

bool couldBeIdPrefix(std::string_view nameOrId)
{
    return nameOrId.size() >= kShortestIdPrefix && allLowerHex(nameOrId);
}

bool isFullId(std::string_view text)
{
    constexpr size_t kIdLength = 64;
    return text.size() == kIdLength && allLowerHex(text);
}

bool namesExactly(std::string_view nameOrId, std::string_view id, std::string_view name)
{
    return nameOrId == name || nameOrId == id || (couldBeIdPrefix(nameOrId) && id.starts_with(nameOrId));
}

}  // namespace resized::runtime
