#include "bus/systemd_reload_watch.h"

#include <systemd/sd-daemon.h>

#include <sdbus-c++/sdbus-c++.h>
#include <spdlog/spdlog.h>

namespace resized::bus {
namespace {

constexpr const char* kSystemdInterface = "org.freedesktop.systemd1.Manager";

}  // namespace

SystemdReloadWatch::SystemdReloadWatch(sdbus::IConnection& connection, service::ResourceManager& manager)
    : proxy_(sdbus::createProxy(connection, "org.freedesktop.systemd1", "/org/freedesktop/systemd1"))
{
    proxy_->uponSignal("Reloading").onInterface(kSystemdInterface).call([&manager](bool active) {
        if (active)
            return;
        spdlog::info("systemd reloaded; re-verifying every workload");
        manager.resynchronise();
    });
    proxy_->finishRegistration();
    if (sd_booted() <= 0)
        return;
    try {
        // systemd sends its signals only while some client has subscribed.
        proxy_->callMethod("Subscribe").onInterface(kSystemdInterface);
    } catch (const sdbus::Error& error) {
        spdlog::warn("cannot subscribe to systemd's signals: {}", error.what());
    }
}

}  // namespace resized::bus
