#include "service/systemd_unit_source.h"

#include <systemd/sd-daemon.h>

#include <cstdlib>
#include <cstring>

namespace resized::service {
namespace {

constexpr const char* kSystemd = "org.freedesktop.systemd1";
constexpr uint64_t kCallTimeoutUsec = 2'000'000;

struct BusError {
    sd_bus_error error = SD_BUS_ERROR_NULL;
    BusError() = default;
    BusError(const BusError&) = delete;
    BusError& operator=(const BusError&) = delete;
    ~BusError() { sd_bus_error_free(&error); }
};

struct FreeString {
    void operator()(char* text) const { std::free(text); }
};
using OwnedString = std::unique_ptr<char, FreeString>;

struct MessageUnref {
    void operator()(sd_bus_message* message) const { sd_bus_message_unref(message); }
};
using Message = std::unique_ptr<sd_bus_message, MessageUnref>;

// The D-Bus interface that carries ControlGroup for this kind of unit.
const char* cgroupInterfaceOf(const std::string& unit)
{
    if (unit.ends_with(".service"))
        return "org.freedesktop.systemd1.Service";
    if (unit.ends_with(".slice"))
        return "org.freedesktop.systemd1.Slice";
    if (unit.ends_with(".scope"))
        return "org.freedesktop.systemd1.Scope";
    return nullptr;
}

std::string unitProperty(sd_bus* bus, const char* path, const char* interface, const char* property)
{
    BusError error;
    char* value = nullptr;
    const int result = sd_bus_get_property_string(bus, kSystemd, path, interface, property, &error.error, &value);
    const OwnedString owned(value);
    if (result < 0)
        throw SourceUnavailable(std::string("cannot read ") + property + " from systemd: " +
                                (error.error.message ? error.error.message : std::strerror(-result)));
    return value ? value : "";
}

}  // namespace

SystemdUnitSource::SystemdUnitSource() = default;

sd_bus* SystemdUnitSource::bus()
{
    if (sd_booted() <= 0)
        throw SourceUnavailable("systemd is not the init system of this node: units cannot be managed");
    if (bus_ && sd_bus_is_open(bus_.get()) > 0)
        return bus_.get();
    bus_.reset();
    sd_bus* bus = nullptr;
    if (const int result = sd_bus_open_system(&bus); result < 0)
        throw SourceUnavailable(std::string("cannot reach systemd: ") + std::strerror(-result));
    bus_.reset(bus);
    sd_bus_set_method_call_timeout(bus, kCallTimeoutUsec);
    return bus;
}

std::optional<Instance> SystemdUnitSource::find(const core::WorkloadName& name)
{
    const char* cgroupInterface = cgroupInterfaceOf(name.name);
    if (!cgroupInterface)
        return std::nullopt;
    sd_bus* connection = bus();
    BusError error;
    sd_bus_message* reply = nullptr;
    // LoadUnit, not GetUnit: a unit that is not running may not be loaded.
    const int result = sd_bus_call_method(connection, kSystemd, "/org/freedesktop/systemd1",
                                          "org.freedesktop.systemd1.Manager", "LoadUnit", &error.error, &reply,
                                          "s", name.name.c_str());
    const Message replyGuard(reply);
    if (result < 0) {
        if (sd_bus_error_has_name(&error.error, "org.freedesktop.systemd1.NoSuchUnit") ||
            sd_bus_error_has_name(&error.error, "org.freedesktop.DBus.Error.InvalidArgs"))
            return std::nullopt;
        throw SourceUnavailable("cannot ask systemd for " + name.name + ": " +
                                (error.error.message ? error.error.message : std::strerror(-result)));
    }
    const char* path = nullptr;
    if (sd_bus_message_read(reply, "o", &path) < 0 || !path)
        throw SourceUnavailable("systemd answered LoadUnit for " + name.name + " with no object path");
    const std::string unitPath = path;
    if (unitProperty(connection, unitPath.c_str(), "org.freedesktop.systemd1.Unit", "LoadState") == "not-found")
        return std::nullopt;
    const std::string active = unitProperty(connection, unitPath.c_str(), "org.freedesktop.systemd1.Unit", "ActiveState");
    const std::string cgroup = unitProperty(connection, unitPath.c_str(), cgroupInterface, "ControlGroup");
    const bool running = !cgroup.empty() && active != "inactive" && active != "failed";
    return Instance{
        .name = name,
        .id = name.name,
        .pod = {},
        .state = running ? core::RunState::Running : core::RunState::Stopped,
        .cgroupPath = running ? cgroup : std::string(),
        .createLimits = {},
        .poolLabel = {},
    };
}

}  // namespace resized::service
