#include "support/test_environment.h"

#include <cstdlib>

namespace resized::integration
{

namespace
{

std::optional<std::string> variable(const char* name)
{
    const char* value = std::getenv(name);
    if (value == nullptr || *value == '\0')
    {
        return std::nullopt;
    }
    return value;
}

} // namespace

std::optional<TestEnvironment> TestEnvironment::fromEnv()
{
    auto directory = variable("RESIZED_TEST_DIR");
    auto podmanSocket = variable("RESIZED_TEST_PODMAN_SOCKET");
    auto busAddress = variable("DBUS_SYSTEM_BUS_ADDRESS");
    auto image = variable("RESIZED_TEST_IMAGE");
    if (!directory || !podmanSocket || !busAddress || !image)
    {
        return std::nullopt;
    }
    return TestEnvironment{
        .directory = *directory,
        .podmanSocket = *podmanSocket,
        .busAddress = std::move(*busAddress),
        .image = std::move(*image),
    };
}

} // namespace resized::integration
