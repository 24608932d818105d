#pragma once

#include <sdbus-c++/sdbus-c++.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace resized::integration
{

// A method call to io.resized1 put together argument by argument, so that a
// test can send what no generated proxy would: arguments of the wrong type,
// too few or too many, or a dictionary that holds one key twice.
class RawCall
{
  public:
    RawCall(sdbus::IConnection& connection, const std::string& objectPath,
            const std::string& interface, const std::string& method);

    template <typename T>
    RawCall& operator<<(const T& value)
    {
        call_ << value;
        return *this;
    }

    // Appends an a{sv} holding the entries in this order, duplicates kept.
    RawCall& appendDictionary(
        const std::vector<std::pair<std::string, sdbus::Variant>>& entries);

    // Sends the call and waits for the answer: the D-Bus error name, or ""
    // when the call succeeded.
    std::string send();

  private:
    std::unique_ptr<sdbus::IProxy> proxy_;
    sdbus::MethodCall call_;
};

} // namespace resized::integration
