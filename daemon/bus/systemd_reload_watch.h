#pragma once

#include <memory>

#include <sdbus-c++/IConnection.h>
#include <sdbus-c++/IProxy.h>

#include "service/resource_manager.h"

namespace resized::bus {

// systemd re-applies its units' cgroup settings when it reloads; workloads
// whose cgroup systemd owns are re-verified the moment a reload finishes
// (org.freedesktop.systemd1.Manager.Reloading(false)). Without systemd on
// the bus this watches nothing and costs nothing.
class SystemdReloadWatch {
public:
    SystemdReloadWatch(sdbus::IConnection& connection, service::ResourceManager& manager);

private:
    std::unique_ptr<sdbus::IProxy> proxy_;
};

}  // namespace resized::bus
