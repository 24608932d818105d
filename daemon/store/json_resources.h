#pragma once

#include <string>

#include "core/resources.h"

namespace resized::store {

// Resource sets are stored as JSON objects keyed like the D-Bus dictionaries.
std::string toJson(const core::Resources& resources);
// Throws StoreError for text that is not such an object.
core::Resources resourcesFromJson(const std::string& text);

}  // namespace resized::store
