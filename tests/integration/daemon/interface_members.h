#pragma once

#include <set>
#include <string>

namespace resized::integration
{

// The members of one interface in an introspection document or an interface
// file of dbus/, each as "method NAME", "signal NAME" or "property NAME
// TYPE"; empty when the document has no such interface.
std::set<std::string> membersOf(const std::string& xml, const std::string& interface);

} // namespace resized::integration
