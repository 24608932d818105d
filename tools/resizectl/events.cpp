#include "events.h"

#include <cstdint>

#include "bus_label.h"
#include "core/quantity.h"
#include "quantity_format.h"
#include "status_format.h"

namespace resized::ctl {

namespace {

constexpr const char* kManagerSubject = "manager";

Event makeEvent(Clock::time_point time, const std::string& kind, const std::string& subject,
                const std::string& details, nlohmann::json fields)
{
    const std::string timestamp = formatIsoTimestamp(time);
    fields["timestamp"] = timestamp;
    fields["event"] = kind;
    std::string text = timestamp + ' ' + subject + ' ' + kind;
    if (!details.empty())
        text += ": " + details;
    return Event{std::move(text), std::move(fields)};
}

// Manager properties are plain counters; show the quantities the way the
// rest of resizectl does.
std::string formatPropertyValue(const std::string& name, const sdbus::Variant& value)
{
    if (value.containsValueOfType<Dictionary>())
        return "{" + describeResources(value.get<Dictionary>()) + "}";
    if (value.containsValueOfType<uint64_t>()) {
        const uint64_t number = value.get<uint64_t>();
        if (name.starts_with("Cpu") && name.ends_with("Millis"))
            return core::formatCpuMillis(number);
        if (name.starts_with("Memory"))
            return formatMemory(number);
        return std::to_string(number);
    }
    if (value.containsValueOfType<std::string>())
        return value.get<std::string>();
    return toJson(value).dump();
}

}  // namespace

Event resourcesAppliedEvent(Clock::time_point time, const std::string& workload, const Dictionary& actual)
{
    return makeEvent(time, "ResourcesApplied", workload, describeResources(actual),
                     {{"workload", workload}, {"actual", toJson(actual)}});
}

Event driftDetectedEvent(Clock::time_point time, const std::string& workload, const Dictionary& desired,
                         const Dictionary& actual)
{
    return makeEvent(time, "DriftDetected", workload,
                     "desired {" + describeResources(desired) + "}, actual {" + describeResources(actual) + "}",
                     {{"workload", workload}, {"desired", toJson(desired)}, {"actual", toJson(actual)}});
}

Event updateFailedEvent(Clock::time_point time, const std::string& workload, const std::string& error,
                        const std::string& message)
{
    return makeEvent(time, "UpdateFailed", workload, error + ": " + readableSizes(message),
                     {{"workload", workload}, {"error", error}, {"message", message}});
}

Event propertiesChangedEvent(Clock::time_point time, const std::string& objectPath, const Dictionary& changed,
                             const std::vector<std::string>& invalidated)
{
    const auto workload = workloadNameFromPath(objectPath);
    std::string details;
    for (const auto& [name, value] : changed) {
        if (!details.empty())
            details += ' ';
        details += name + '=' + formatPropertyValue(name, value);
    }
    for (const auto& name : invalidated) {
        if (!details.empty())
            details += ' ';
        details += name + " changed";
    }
    nlohmann::json fields{{"object", objectPath}, {"changed", toJson(changed)}, {"invalidated", invalidated}};
    if (workload)
        fields["workload"] = *workload;
    const std::string subject = workload ? *workload : objectPath == kManagerPath ? kManagerSubject : objectPath;
    return makeEvent(time, "PropertiesChanged", subject, details, std::move(fields));
}

Event daemonPresenceEvent(Clock::time_point time, bool present)
{
    return makeEvent(time, present ? "DaemonStarted" : "DaemonStopped", kManagerSubject, "", nlohmann::json::object());
}

}  // namespace resized::ctl
