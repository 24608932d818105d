#pragma once

#include <map>
#include <string>

#include <sdbus-c++/Types.h>

#include "core/resources.h"
#include "service/resource_manager.h"
#include "store/state_store.h"

namespace resized::bus {

using Dictionary = std::map<std::string, sdbus::Variant>;

// Decodes a resource dictionary of the contract. Throws
// service::ResizeError(InvalidArgument) for an unknown key, a wrong variant
// type or a value outside the contract's ranges.
core::Resources decodeResources(const Dictionary& dictionary);
Dictionary encodeResources(const core::Resources& resources);

// Decodes the options of UpdateResources/Update, with the same errors.
service::UpdateOptions decodeOptions(const Dictionary& dictionary);

// The status dictionary of the contract.
Dictionary encodeStatus(const store::WorkloadRecord& record);

}  // namespace resized::bus
