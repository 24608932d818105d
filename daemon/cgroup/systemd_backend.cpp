#include "cgroup/systemd_backend.h"

#include <systemd/sd-daemon.h>

#include <cstring>
#include <vector>

#include "cgroup/cgroup_files.h"
#include "cgroup/cgroup_values.h"
#include "cgroup/detect.h"
#include "cgroup/usage_files.h"
#include "core/cpuset.h"
#include "core/resources.h"

namespace resized::cgroup {

namespace {

// systemd's unit_name_is_valid(), reduced to what a cgroup may be: a scope,
// service or slice, possibly a template instance ("foo@bar.service").
constexpr std::string_view kUnitNameCharacters =
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789:-_.\\@";
constexpr size_t kUnitNameMax = 255;
constexpr std::string_view kUnitSuffixes[] = {".scope", ".service", ".slice"};

bool isUnitName(std::string_view name)
{
    if (name.empty() || name.size() > kUnitNameMax
        || name.find_first_not_of(kUnitNameCharacters) != std::string_view::npos)
        return false;
    for (const auto suffix : kUnitSuffixes) {
        if (!name.ends_with(suffix))
            continue;
        const auto prefix = name.substr(0, name.size() - suffix.size());
        const auto at = prefix.find('@');
        if (at == std::string_view::npos)
            return !prefix.empty();
        // "foo@bar": one '@' with a non-empty template name and instance.
        return at > 0 && at + 1 < prefix.size() && prefix.find('@', at + 1) == std::string_view::npos;
    }
    return false;
}

struct MessageUnref {
    void operator()(sd_bus_message* message) const { sd_bus_message_unref(message); }
};
using Message = std::unique_ptr<sd_bus_message, MessageUnref>;

class BusError {
public:
    BusError() = default;
    BusError(const BusError&) = delete;
    BusError& operator=(const BusError&) = delete;
    ~BusError() { sd_bus_error_free(&error_); }

    sd_bus_error* get() { return &error_; }
    bool isSet() const { return sd_bus_error_is_set(&error_); }
    std::string message() const { return std::string(error_.name) + ": " + (error_.message ? error_.message : ""); }

private:
    sd_bus_error error_ = SD_BUS_ERROR_NULL;
};

void check(int result, std::string_view what)
{
    if (result < 0)
        throw CgroupError(std::string(what) + ": " + std::strerror(-result), -result);
}

void appendProperty(sd_bus_message* message, const char* name, uint64_t value)
{
    check(sd_bus_message_append(message, "(sv)", name, "t", value), "appending a unit property");
}

// AllowedCPUs and AllowedMemoryNodes travel as systemd's bitmask: bit n of
// byte n/8 for CPU (node) n.
void appendBitmask(sd_bus_message* message, const char* property, const core::CpuSet& members)
{
    std::vector<uint8_t> mask(members.empty() ? 0 : *members.rbegin() / 8 + 1);
    for (const unsigned member : members)
        mask[member / 8] |= uint8_t(1u << (member % 8));
    const std::string what = std::string("appending ") + property;
    check(sd_bus_message_open_container(message, 'r', "sv"), what.c_str());
    check(sd_bus_message_append(message, "s", property), what.c_str());
    check(sd_bus_message_open_container(message, 'v', "ay"), what.c_str());
    check(sd_bus_message_append_array(message, 'y', mask.data(), mask.size()), what.c_str());
    check(sd_bus_message_close_container(message), what.c_str());
    check(sd_bus_message_close_container(message), what.c_str());
}

void appendLimits(sd_bus_message* message, const core::Resources& limits)
{
    if (limits.cpuMillis) {
        // systemd keeps a quota per second of wall time (UINT64_MAX: none);
        // the period is pinned so that cpu.max reads back as the v2 backend
        // would have written it.
        appendProperty(message, "CPUQuotaPeriodUSec", kDefaultCpuPeriodUs);
        appendProperty(message, "CPUQuotaPerSecUSec",
                       *limits.cpuMillis == core::kUnlimited ? core::kUnlimited : *limits.cpuMillis * 1000);
    }
    if (limits.memoryHigh)
        appendProperty(message, "MemoryHigh", *limits.memoryHigh);
    if (limits.memoryMax)
        appendProperty(message, "MemoryMax", *limits.memoryMax);
    if (limits.cpuWeight)
        appendProperty(message, "CPUWeight", *limits.cpuWeight);
}

}  // namespace

std::optional<std::string> systemdUnitOfCgroup(std::string_view cgroup)
{
    const auto slash = cgroup.rfind('/');
    auto name = slash == std::string_view::npos ? cgroup : cgroup.substr(slash + 1);
    // systemd prefixes '_' to cgroup names that could clash with the
    // kernel's own files (cg_escape()).
    if (name.starts_with('_'))
        name.remove_prefix(1);
    if (!isUnitName(name))
        return std::nullopt;
    return std::string(name);
}

SystemdBackend::SystemdBackend(std::filesystem::path root) : root_(root), files_(std::move(root)) {}

sd_bus* SystemdBackend::systemBus()
{
    if (bus_ && sd_bus_is_open(bus_.get()) > 0)
        return bus_.get();
    bus_.reset();
    sd_bus* bus = nullptr;
    check(sd_bus_open_system(&bus), "connecting to the system bus");
    bus_.reset(bus);
    check(sd_bus_set_method_call_timeout(bus, kCallTimeout.count()), "setting the bus call timeout");
    return bus;
}

void SystemdBackend::write(const std::string& cgroup, const core::Resources& limits)
{
    const auto unit = systemdUnitOfCgroup(cgroup);
    if (!unit)
        throw CgroupError(cgroup + ": not the cgroup of a systemd scope or service");
    // The unit is named by the last component alone: make sure the whole
    // path is one inside the cgroup root that exists.
    requireCgroupDirectory(resolveCgroupDirectory(root_, cgroup));
    if (limits.empty())
        return;

    const std::lock_guard lock(busMutex_);
    sd_bus* bus = systemBus();
    sd_bus_message* raw = nullptr;
    check(sd_bus_message_new_method_call(bus, &raw, "org.freedesktop.systemd1", "/org/freedesktop/systemd1",
                                         "org.freedesktop.systemd1.Manager", "SetUnitProperties"),
          "creating SetUnitProperties");
    const Message call(raw);
    check(sd_bus_message_append(call.get(), "sb", unit->c_str(), 1), "appending the unit name");
    check(sd_bus_message_open_container(call.get(), 'a', "(sv)"), "appending unit properties");
    appendLimits(call.get(), limits);
    if (limits.allowedCpus)
        appendBitmask(call.get(), "AllowedCPUs",
                      orAllOffered(*limits.allowedCpus, [&] { return files_.parentCpus(cgroup); }));
    if (limits.memoryNodes)
        appendBitmask(call.get(), "AllowedMemoryNodes",
                      orAllOffered(*limits.memoryNodes, [&] { return files_.parentMemoryNodes(cgroup); }));
    check(sd_bus_message_close_container(call.get()), "appending unit properties");

    BusError error;
    sd_bus_message* reply = nullptr;
    const int result = sd_bus_call(bus, call.get(), 0, error.get(), &reply);
    const Message replyGuard(reply);
    if (result < 0) {
        const std::string reason = error.isSet() ? error.message() : std::strerror(-result);
        throw CgroupError("SetUnitProperties " + *unit + " (" + core::describe(limits) + "): " + reason, -result);
    }
}

core::CpuSet SystemdBackend::orAllOffered(const core::CpuSet& allowed,
                                          const std::function<core::CpuSet()>& offeredByParent)
{
    if (!allowed.empty())
        return allowed;
    // An empty AllowedCPUs= (AllowedMemoryNodes=) makes systemd forget the
    // setting but leave the cpuset as it was (systemd 252): lifting a
    // restriction takes naming all that the parent offers.
    try {
        return offeredByParent();
    } catch (const CgroupError&) {
        // No cpuset controller above the unit: nothing is restricted.
        return {};
    }
}

core::Resources SystemdBackend::read(const std::string& cgroup) const { return files_.read(cgroup); }

uint64_t SystemdBackend::memoryUsage(const std::string& cgroup) const { return files_.memoryUsage(cgroup); }

UsageFiles SystemdBackend::openUsage(const std::string& cgroup) const { return files_.openUsage(cgroup); }

std::optional<FileDescriptor> SystemdBackend::armPressureTrigger(const std::string& cgroup, PressureResource resource,
                                                                 std::chrono::microseconds threshold,
                                                                 std::chrono::microseconds window) const
{
    return files_.armPressureTrigger(cgroup, resource, threshold, window);
}

// memory.reclaim is not a unit property: a one-off request that systemd
// neither knows nor undoes.
void SystemdBackend::reclaim(const std::string& cgroup, uint64_t bytes) { files_.reclaim(cgroup, bytes); }

core::CpuSet SystemdBackend::parentCpus(const std::string& cgroup) const { return files_.parentCpus(cgroup); }

core::CpuSet SystemdBackend::parentMemoryNodes(const std::string& cgroup) const
{
    return files_.parentMemoryNodes(cgroup);
}

bool SystemdBackend::exists(const std::string& cgroup) const
{
    return files_.exists(cgroup);
}

std::vector<std::string> SystemdBackend::childCgroups(const std::string& cgroup) const
{
    return files_.childCgroups(cgroup);
}

std::unique_ptr<LimitsBackend> makeSystemdBackend(std::filesystem::path root)
{
    return std::make_unique<SystemdBackend>(std::move(root));
}

bool systemdManagesCgroups(const std::filesystem::path& root)
{
    return sd_booted() > 0 && detectCgroupVersion(root) == CgroupVersion::V2;
}

}  // namespace resized::cgroup
