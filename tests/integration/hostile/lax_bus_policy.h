#pragma once

#include <filesystem>

namespace resized::integration
{

// While it lives, the test bus lets everybody call everything on
// io.resized1: a policy file beside the project's own in with-testenv.sh's
// system.d, followed by ReloadConfig. Only the daemon's own credential check
// is left standing then. The file goes and the bus reloads on destruction.
class LaxBusPolicy
{
  public:
    explicit LaxBusPolicy(const std::filesystem::path& testDirectory);
    LaxBusPolicy(const LaxBusPolicy&) = delete;
    LaxBusPolicy& operator=(const LaxBusPolicy&) = delete;
    ~LaxBusPolicy();

  private:
    std::filesystem::path file_;
};

// Asks the bus (DBUS_SYSTEM_BUS_ADDRESS) to read its configuration again.
void reloadBusConfiguration();

} // namespace resized::integration
