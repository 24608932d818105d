#pragma once

#include <memory>

#include <systemd/sd-bus.h>

#include "service/workload_source.h"

namespace resized::service {

// systemd's units (services, slices, scopes) as workloads: `unit:NAME`.
// Their limits are written through systemd (the DriverSelector picks the
// systemd writer for a unit's cgroup), so they survive daemon-reload.
class SystemdUnitSource : public WorkloadSource {
public:
    SystemdUnitSource();

    // Throws SourceUnavailable where systemd is not PID 1 or cannot be asked.
    std::optional<Instance> find(const core::WorkloadName& name) override;
    // Units are asked one by one: there are few, and listing every unit of
    // the system would cost more than asking for the managed ones.
    std::vector<Instance> list() override { return {}; }

private:
    sd_bus* bus();

    struct BusUnref {
        void operator()(sd_bus* bus) const { sd_bus_flush_close_unref(bus); }
    };
    std::unique_ptr<sd_bus, BusUnref> bus_;
};

}  // namespace resized::service
