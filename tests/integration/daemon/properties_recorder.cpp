#include "properties_recorder.h"

#include "resized_client.h"

#include "support/wait.h"

#include <algorithm>
#include <exception>

namespace resized::integration
{

namespace
{

// Never throws: it runs on the recorder's thread, where an exception would
// end the test program. What it cannot read it keeps as a text saying so,
// which no expected value equals.
PropertyValue plainValueOf(const sdbus::Variant& value)
{
    const std::string type = value.peekValueType();
    try
    {
        if (type == "t")
        {
            return value.get<std::uint64_t>();
        }
        if (type == "u")
        {
            return std::uint64_t{value.get<std::uint32_t>()};
        }
        if (type == "b")
        {
            return value.get<bool>();
        }
        if (type == "s")
        {
            return value.get<std::string>();
        }
        if (type == "a{sv}")
        {
            return ResourceValues::fromDictionary(value.get<Dictionary>());
        }
        return "unreadable value of type " + type;
    }
    catch (const std::exception& error)
    {
        return "unreadable value of type " + type + ": " + error.what();
    }
}

struct ValuePrinter
{
    std::ostream& stream;

    void operator()(bool value) const { stream << std::boolalpha << value; }
    void operator()(const std::string& value) const { stream << '"' << value << '"'; }
    template <typename T>
    void operator()(const T& value) const
    {
        stream << value;
    }
};

} // namespace

std::ostream& operator<<(std::ostream& stream, const PropertyValue& value)
{
    std::visit(ValuePrinter{stream}, value);
    return stream;
}

PropertiesRecorder::PropertiesRecorder(const std::string& objectPath,
                                       const std::string& interface) :
    interface_(interface),
    connection_(sdbus::createSystemBusConnection()),
    object_(sdbus::createProxy(*connection_, busName, objectPath))
{
    object_->uponSignal("PropertiesChanged")
        .onInterface("org.freedesktop.DBus.Properties")
        .call([this](const std::string& changedInterface, const Dictionary& changed,
                     const std::vector<std::string>&) {
            if (changedInterface != interface_)
            {
                return;
            }
            std::vector<Change> plain;
            for (const auto& [property, value] : changed)
            {
                plain.push_back({property, plainValueOf(value)});
            }
            const std::lock_guard lock(mutex_);
            changes_.insert(changes_.end(), plain.begin(), plain.end());
        });
    object_->finishRegistration();
    connection_->enterEventLoopAsync();
}

PropertiesRecorder::~PropertiesRecorder()
{
    // No handler may run while the proxy goes away.
    connection_->leaveEventLoop();
}

std::vector<PropertyValue> PropertiesRecorder::valuesOf(const std::string& property) const
{
    const std::lock_guard lock(mutex_);
    std::vector<PropertyValue> values;
    for (const auto& change : changes_)
    {
        if (change.property == property)
        {
            values.push_back(change.value);
        }
    }
    return values;
}

bool PropertiesRecorder::waitForValue(const std::string& property, const PropertyValue& value,
                                      std::chrono::milliseconds timeout) const
{
    return waitUntil(
        [&] {
            const auto values = valuesOf(property);
            return std::find(values.begin(), values.end(), value) != values.end();
        },
        timeout);
}

} // namespace resized::integration
