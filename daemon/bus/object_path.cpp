#include "bus/object_path.h"

#include <cstdlib>
#include <memory>
#include <system_error>

#include <systemd/sd-bus.h>

namespace resized::bus {
namespace {

std::string encodedPath(const char* parent, std::string_view name)
{
    char* path = nullptr;
    const int result = sd_bus_path_encode(parent, std::string(name).c_str(), &path);
    const std::unique_ptr<char, decltype(&std::free)> owned(path, &std::free);
    if (result < 0)
        throw std::system_error(-result, std::generic_category(), "encoding the object path of " + std::string(name));
    return path;
}

}  // namespace

std::string workloadPath(std::string_view name) { return encodedPath(kWorkloadPathParent, name); }

std::string poolPath(std::string_view name) { return encodedPath(kPoolPathParent, name); }

std::string planPath(int64_t id) { return std::string(kPlanPathParent) + "/" + std::to_string(id); }

}  // namespace resized::bus
