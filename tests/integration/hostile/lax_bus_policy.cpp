#include "lax_bus_policy.h"

#include <sdbus-c++/sdbus-c++.h>

#include <fstream>
#include <iostream>
#include <stdexcept>

namespace resized::integration
{

LaxBusPolicy::LaxBusPolicy(const std::filesystem::path& testDirectory) :
    file_(testDirectory / "system.d" / "zz-hostile-lax.conf")
{
    std::ofstream policy(file_);
    policy << R"(<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <policy context="default">
    <allow send_destination="io.resized1"/>
  </policy>
</busconfig>
)";
    policy.close();
    if (!policy)
    {
        throw std::runtime_error("cannot write " + file_.string());
    }
    reloadBusConfiguration();
}

LaxBusPolicy::~LaxBusPolicy()
{
    std::filesystem::remove(file_);
    try
    {
        reloadBusConfiguration();
    }
    catch (const sdbus::Error& error)
    {
        std::cerr << "cannot restore the bus policy: " << error.what() << "\n";
    }
}

void reloadBusConfiguration()
{
    const auto connection = sdbus::createSystemBusConnection();
    sdbus::createProxy(*connection, "org.freedesktop.DBus", "/org/freedesktop/DBus")
        ->callMethod("ReloadConfig")
        .onInterface("org.freedesktop.DBus");
}

} // namespace resized::integration
