#pragma once

#include <optional>
#include <string>

#include "core/resources.h"

namespace resized::core {

// Checks every value against the ranges of the D-Bus contract. Returns a
// sentence naming the offending key when a value is out of range, nullopt
// when all are valid.
std::optional<std::string> outOfRange(const Resources& resources);

// Keys that cannot be asked together (ExclusiveCpus decides CpuMillis and
// AllowedCpus itself). Returns a sentence naming them, nullopt when none.
std::optional<std::string> conflictingKeys(const Resources& resources);

// A pool's name is also a label value (io.resized1.pool=NAME) and part of
// an object path: 1 to 63 of [A-Za-z0-9_.-], beginning with a letter or a
// digit. Returns why `name` is not one, nullopt when it is.
std::optional<std::string> invalidPoolName(const std::string& name);

}  // namespace resized::core
