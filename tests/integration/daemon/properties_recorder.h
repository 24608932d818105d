#pragma once

#include "resource_values.h"

#include <sdbus-c++/sdbus-c++.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <ostream>
#include <string>
#include <variant>
#include <vector>

namespace resized::integration
{

// A property value as a PropertiesChanged signal carried it: t (or u), b, s, or a
// resource dictionary a{sv}. Kept as plain values, so that no sdbus::Variant
// (whose message reference counts are not thread-safe) leaves the thread
// that received it.
using PropertyValue = std::variant<std::uint64_t, bool, std::string, ResourceValues>;

std::ostream& operator<<(std::ostream& stream, const PropertyValue& value);

// Listens, on a bus connection and thread of its own, to the
// PropertiesChanged signals of one interface of one object of resized (the
// Manager or a Workload), from construction on, keeping the values they
// carry in the order they came.
class PropertiesRecorder
{
  public:
    PropertiesRecorder(const std::string& objectPath, const std::string& interface);
    PropertiesRecorder(const PropertiesRecorder&) = delete;
    PropertiesRecorder& operator=(const PropertiesRecorder&) = delete;
    ~PropertiesRecorder();

    // Every value property was signalled with so far, oldest first.
    std::vector<PropertyValue> valuesOf(const std::string& property) const;

    // Waits until property has been signalled with value; false on timeout.
    bool waitForValue(const std::string& property, const PropertyValue& value,
                      std::chrono::milliseconds timeout = std::chrono::seconds(30)) const;

  private:
    struct Change
    {
        std::string property;
        PropertyValue value;
    };

    std::string interface_;
    std::unique_ptr<sdbus::IConnection> connection_;
    std::unique_ptr<sdbus::IProxy> object_;
    mutable std::mutex mutex_;
    std::vector<Change> changes_;
};

} // namespace resized::integration
