#include "bus/object_path.h"

namespace resized::bus {

std::string escapeLabel(std::string_view name)
{
    if (name.empty())
        return "_";
    static constexpr char kHex[] = "0123456789abcdef";
    std::string escaped;
    escaped.reserve(name.size());
    for (unsigned char c : name) {
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) {
            escaped += static_cast<char>(c);
        } else {
            escaped += '_';
            escaped += kHex[c >> 4];
            escaped += kHex[c & 0xf];
        }
    }
    return escaped;
}

}  // namespace resized::bus
