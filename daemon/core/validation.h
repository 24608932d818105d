#pragma once

#include <optional>
#include <string>

#include "core/resources.h"

namespace resized::core {

// Checks every value against the ranges of the D-Bus contract. Returns a
// sentence naming the offending key when a value is out of range, nullopt
// when all are valid.
std::optional<std::string> outOfRange(const Resources& resources);

}  // namespace resized::core
