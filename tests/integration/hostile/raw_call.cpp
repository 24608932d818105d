#include "raw_call.h"

namespace resized::integration
{

RawCall::RawCall(sdbus::IConnection& connection, const std::string& objectPath,
                 const std::string& interface, const std::string& method) :
    proxy_(sdbus::createProxy(connection, "io.resized1", objectPath)),
    call_(proxy_->createMethodCall(interface, method))
{}

RawCall& RawCall::appendDictionary(
    const std::vector<std::pair<std::string, sdbus::Variant>>& entries)
{
    call_.openContainer("{sv}");
    for (const auto& [key, value] : entries)
    {
        call_.openDictEntry("sv");
        call_ << key << value;
        call_.closeDictEntry();
    }
    call_.closeContainer();
    return *this;
}

std::string RawCall::send()
{
    try
    {
        proxy_->callMethod(call_);
    }
    catch (const sdbus::Error& error)
    {
        return error.getName();
    }
    return "";
}

} // namespace resized::integration
