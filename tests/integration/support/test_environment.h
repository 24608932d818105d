#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace resized::integration
{

// The private environment that tests/integration/with-testenv.sh set up for
// this run.
struct TestEnvironment
{
    // RESIZED_TEST_DIR: a scratch folder removed after the run.
    std::filesystem::path directory;
    // RESIZED_TEST_PODMAN_SOCKET: the Podman API service.
    std::filesystem::path podmanSocket;
    // DBUS_SYSTEM_BUS_ADDRESS: the private system bus.
    std::string busAddress;
    // RESIZED_TEST_IMAGE: an image whose /bin holds busybox's applets.
    std::string image;

    // Empty unless every variable above is set, i.e. when the test was not
    // started through with-testenv.sh.
    static std::optional<TestEnvironment> fromEnv();
};

} // namespace resized::integration
