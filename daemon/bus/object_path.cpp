#include "bus/object_path.h"

#include <cstdlib>
#include <memory>
#include <system_error>

#include <systemd/sd-bus.h>

namespace resized::bus {

std::string workloadPath(std::string_view name)
{
    char* path = nullptr;
    const int result = sd_bus_path_encode(kWorkloadPathParent, std::string(name).c_str(), &path);
    const std::unique_ptr<char, decltype(&std::free)> owned(path, &std::free);
    if (result < 0)
        throw std::system_error(-result, std::generic_category(), "encoding the object path of " + std::string(name));
    return path;
}

}  // namespace resized::bus
