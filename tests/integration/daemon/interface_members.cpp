#include "interface_members.h"

#include <regex>

namespace resized::integration
{

std::set<std::string> membersOf(const std::string& xml, const std::string& interface)
{
    const auto start = xml.find("<interface name=\"" + interface + "\">");
    if (start == std::string::npos)
    {
        return {};
    }
    const auto end = xml.find("</interface>", start);
    const std::string block = xml.substr(start, end - start);
    static const std::regex member(
        R"re(<(method|signal) name="([^"]+)"|<property name="([^"]+)" type="([^"]+)")re");
    std::set<std::string> members;
    for (auto match = std::sregex_iterator(block.begin(), block.end(), member);
         match != std::sregex_iterator(); ++match)
    {
        members.insert((*match)[1].matched
                           ? (*match)[1].str() + " " + (*match)[2].str()
                           : "property " + (*match)[3].str() + " " + (*match)[4].str());
    }
    return members;
}

} // namespace resized::integration
