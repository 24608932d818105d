#pragma once

#include <string>
#include <vector>

#include "core/resources.h"

namespace resized::core {

// The names (D-Bus keys) of the resources that `expected` names and that
// `actual` lacks or holds at a value outside the key's rounding tolerance
// (NumberKey::driftTolerance).
std::vector<std::string> driftedKeys(const Resources& expected, const Resources& actual);

inline bool matches(const Resources& expected, const Resources& actual)
{
    return driftedKeys(expected, actual).empty();
}

}  // namespace resized::core
