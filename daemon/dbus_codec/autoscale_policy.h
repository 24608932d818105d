#pragma once

#include "core/autoscale.h"
#include "dbus_codec/resource_dictionary.h"

namespace resized::dbus_codec {

// SetAutoscalePolicy's dictionary (design.md §1b, "Autoscaling on the
// node"): keys left out keep their defaults. Throws InvalidDictionary for an
// unknown key, a wrong type, an unknown enumeration value or a policy
// core::autoscale::invalidity() finds unsound.
core::autoscale::Policy decodeAutoscalePolicy(const Dictionary& dictionary);

// Every key, defaults included: what the status reports as `Autoscale`.
Dictionary encodeAutoscalePolicy(const core::autoscale::Policy& policy);

}  // namespace resized::dbus_codec
