#pragma once

#include <map>
#include <stdexcept>
#include <string>

#include <sdbus-c++/Types.h>

#include "core/resources.h"

namespace resized::dbus_codec {

// An a{sv} of the D-Bus contract.
using Dictionary = std::map<std::string, sdbus::Variant>;

// What a caller sent breaks the contract: an unknown key, a wrong variant
// type or a value outside the contract's ranges. what() says which, for the
// caller.
class InvalidDictionary : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

// The value a caller sent for `key`; throws InvalidDictionary when it is not
// of type T.
template <typename T>
T valueOf(const std::string& key, const sdbus::Variant& value)
{
    if (!value.containsValueOfType<T>())
        throw InvalidDictionary(key + " must be of D-Bus type '" + sdbus::signature_of<T>::str() + "', got '" +
                                value.peekValueType() + "'");
    return value.get<T>();
}

// A resource dictionary a caller sent, its cpuset lists parsed and its
// values checked against the contract's ranges (core::outOfRange). Throws
// InvalidDictionary.
core::Resources decodeResources(const Dictionary& dictionary);

// A resource dictionary the daemon reported (Desired, Actual, a signal's
// payload). A key this build does not know, or of another type, is left out
// rather than failing the whole answer: an older client still reads a newer
// daemon.
core::Resources decodeReportedResources(const Dictionary& dictionary);

// Only the keys `resources` names: a missing key leaves that resource as it is.
Dictionary encodeResources(const core::Resources& resources);

}  // namespace resized::dbus_codec
