#include "runtime/podman_json.h"

#include <algorithm>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>

#include "core/cpuset.h"
#include "core/resources.h"

namespace resized::runtime {

namespace {

using nlohmann::json;

// Docker's and Podman's default CFS period when only a quota is given.
constexpr uint64_t kDefaultCpuPeriodUsec = 100'000;

json parseObject(std::string_view body, std::string_view what)
{
    json document = json::parse(body, nullptr, /*allow_exceptions=*/false);
    if (document.is_discarded())
        throw MalformedReply(std::string(what) + ": not valid JSON");
    if (!document.is_object())
        throw MalformedReply(std::string(what) + ": not a JSON object");
    return document;
}

json parseArray(std::string_view body, std::string_view what)
{
    json document = json::parse(body, nullptr, /*allow_exceptions=*/false);
    if (document.is_discarded() || !document.is_array())
        throw MalformedReply(std::string(what) + ": not a JSON array");
    return document;
}

// Runs `parse`, turning nlohmann's type and missing-key exceptions into
// MalformedReply that names what was being parsed.
template <typename Parse>
auto guarded(std::string_view what, Parse&& parse)
{
    try {
        return parse();
    } catch (const json::exception& e) {
        throw MalformedReply(std::string(what) + ": " + e.what());
    }
}

// Where a reply keeps the limits something was created with; nullptr where
// that reply has no such field.
struct LimitFields {
    const char* nanoCpus;
    const char* cpuQuota;
    const char* cpuPeriod;
    const char* memoryMax;
    const char* memoryHigh;
    const char* cpuShares;
    const char* cpusetCpus;
};

// A container inspect's HostConfig.
constexpr LimitFields kContainerLimits{"NanoCpus", "CpuQuota", "CpuPeriod", "Memory",
                                       "MemoryReservation", "CpuShares", "CpusetCpus"};
// The top level of a pod inspect (`podman pod create` takes no CPU count in
// nanocores and no memory reservation).
constexpr LimitFields kPodLimits{nullptr, "cpu_quota", "cpu_period", "memory_limit",
                                 nullptr, "cpu_shares", "cpuset_cpus"};

// A limit: missing, 0 or negative (-1 is "unlimited" in some
// Docker-compatible fields) all mean it was created without it.
std::optional<uint64_t> positiveLimit(const json& object, const char* key)
{
    if (!key)
        return std::nullopt;
    auto field = object.find(key);
    if (field == object.end() || field->is_null())
        return std::nullopt;
    if (!field->is_number_integer())
        throw MalformedReply(std::string(key) + " is not an integer");
    if (field->is_number_unsigned())
        return field->get<uint64_t>() == 0 ? std::nullopt : std::optional(field->get<uint64_t>());
    int64_t value = field->get<int64_t>();
    return value > 0 ? std::optional(static_cast<uint64_t>(value)) : std::nullopt;
}

uint64_t divideRoundingUp(uint64_t dividend, uint64_t divisor)
{
    return dividend / divisor + (dividend % divisor != 0);
}

// Rounded up, so that a fractional millicore is never admitted as less than
// the container may really use.
std::optional<uint64_t> createCpuMillis(const json& object, const LimitFields& fields)
{
    if (auto nanoCpus = positiveLimit(object, fields.nanoCpus))
        return divideRoundingUp(*nanoCpus, 1'000'000);
    auto quota = positiveLimit(object, fields.cpuQuota);
    if (!quota)
        return std::nullopt;
    const uint64_t period = positiveLimit(object, fields.cpuPeriod).value_or(kDefaultCpuPeriodUsec);
    const unsigned __int128 millis = (static_cast<unsigned __int128>(*quota) * 1000 + period - 1) / period;
    return millis >= core::kUnlimited ? core::kUnlimited - 1 : static_cast<uint64_t>(millis);
}

std::optional<core::CpuSet> createAllowedCpus(const json& object, const char* key)
{
    auto field = object.find(key);
    if (field == object.end() || field->is_null())
        return std::nullopt;
    auto text = field->get<std::string>();
    if (text.empty())
        return std::nullopt;
    auto cpus = core::parseCpuSet(text);
    if (!cpus)
        throw MalformedReply(std::string(key) + " is not a cpuset list: " + text);
    return cpus;
}

core::Resources createLimits(const json& object, const LimitFields& fields)
{
    if (!object.is_object())
        throw MalformedReply("the create-time limits are not an object");
    core::Resources limits;
    limits.cpuMillis = createCpuMillis(object, fields);
    limits.memoryMax = positiveLimit(object, fields.memoryMax);
    limits.memoryHigh = positiveLimit(object, fields.memoryHigh);
    if (auto shares = positiveLimit(object, fields.cpuShares))
        limits.cpuWeight = cpuSharesToWeight(*shares);
    limits.allowedCpus = createAllowedCpus(object, fields.cpusetCpus);
    return limits;
}

// Optional string fields: absent and null both read as empty.
std::string optionalString(const json& object, const char* key)
{
    auto field = object.find(key);
    if (field == object.end() || field->is_null())
        return {};
    return field->get<std::string>();
}

// nlohmann converts a floating-point number to an integer type without a
// check (undefined behaviour out of range), so integers are taken only from
// integer JSON numbers.
int64_t integerField(const json& object, const char* key)
{
    const auto& field = object.at(key);
    if (!field.is_number_integer() || (field.is_number_unsigned() &&
                                       field.get<uint64_t>() > uint64_t(std::numeric_limits<int64_t>::max())))
        throw MalformedReply(std::string(key) + " is not an integer");
    return field.get<int64_t>();
}

// Absent and null both read as no labels.
Labels labelsOf(const json& object, const char* key)
{
    auto field = object.find(key);
    if (field == object.end() || field->is_null())
        return {};
    // Checked first: nlohmann would also make a map of an array of pairs.
    if (!field->is_object())
        throw MalformedReply(std::string(key) + " is not an object");
    return field->get<Labels>();
}

pid_t pidOf(const json& object)
{
    auto pid = integerField(object, "Pid");
    if (pid < 0 || pid > std::numeric_limits<pid_t>::max())
        throw MalformedReply("Pid out of range: " + std::to_string(pid));
    return static_cast<pid_t>(pid);
}

ListEntry parseListEntry(const json& entry)
{
    ListEntry parsed;
    parsed.id = entry.at("Id").get<std::string>();
    const auto& names = entry.at("Names");
    if (!names.is_array() || names.empty())
        throw MalformedReply("list entry " + parsed.id + " has no name");
    parsed.name = names.front().get<std::string>();
    parsed.podId = optionalString(entry, "Pod");
    parsed.podName = optionalString(entry, "PodName");
    const auto state = entry.at("State").get<std::string>();
    parsed.paused = state == "paused";
    parsed.running = state == "running" || parsed.paused;
    parsed.pid = parsed.running ? pidOf(entry) : 0;
    parsed.labels = labelsOf(entry, "Labels");
    return parsed;
}

PodState podStateOf(const std::string& text)
{
    static const std::map<std::string, PodState, std::less<>> states{
        {"Created", PodState::Created}, {"Running", PodState::Running},
        {"Degraded", PodState::Degraded}, {"Paused", PodState::Paused},
        {"Stopped", PodState::Stopped}, {"Exited", PodState::Exited},
        {"Error", PodState::Error},
    };
    auto state = states.find(text);
    if (state == states.end())
        throw MalformedReply("unknown pod state " + text);
    return state->second;
}

std::vector<PodMember> podMembersOf(const json& document)
{
    auto field = document.find("Containers");
    if (field == document.end() || field->is_null())
        return {};
    if (!field->is_array())
        throw MalformedReply("Containers is not an array");
    std::vector<PodMember> members;
    for (const auto& member : *field)
        members.push_back({member.at("Id").get<std::string>(), member.at("Name").get<std::string>()});
    return members;
}

}  // namespace

uint64_t cpuSharesToWeight(uint64_t shares)
{
    if (shares == 0)
        return 0;
    uint64_t weight = (shares * 100 + 512) / 1024;
    return std::clamp(weight, core::kMinCpuWeight, core::kMaxCpuWeight);
}

Container parseInspect(std::string_view body)
{
    constexpr std::string_view what = "container inspect reply";
    auto document = parseObject(body, what);
    return guarded(what, [&] {
        Container container;
        container.id = document.at("Id").get<std::string>();
        container.name = document.at("Name").get<std::string>();
        container.podId = optionalString(document, "Pod");
        const auto& state = document.at("State");
        // Podman says Running=false, Paused=true of a frozen container.
        container.paused = state.value("Paused", false);
        container.running = state.at("Running").get<bool>() || container.paused;
        // A stopped container keeps the PID it last had in some versions; it
        // means nothing once the process is gone.
        container.pid = container.running ? pidOf(state) : 0;
        container.cgroupPath = optionalString(state, "CgroupPath");
        if (auto config = document.find("Config"); config != document.end() && config->is_object())
            container.labels = labelsOf(*config, "Labels");
        container.createLimits = createLimits(document.at("HostConfig"), kContainerLimits);
        return container;
    });
}

std::vector<ListEntry> parseList(std::string_view body)
{
    constexpr std::string_view what = "container list reply";
    const json document = parseArray(body, what);
    return guarded(what, [&] {
        std::vector<ListEntry> entries;
        entries.reserve(document.size());
        for (const auto& entry : document)
            entries.push_back(parseListEntry(entry));
        return entries;
    });
}

Pod parsePod(std::string_view body)
{
    constexpr std::string_view what = "pod inspect reply";
    auto document = parseObject(body, what);
    return guarded(what, [&] {
        Pod pod;
        pod.id = document.at("Id").get<std::string>();
        pod.name = document.at("Name").get<std::string>();
        pod.state = podStateOf(document.at("State").get<std::string>());
        pod.cgroupPath = optionalString(document, "CgroupPath");
        pod.infraContainerId = optionalString(document, "InfraContainerID");
        pod.members = podMembersOf(document);
        pod.labels = labelsOf(document, "Labels");
        pod.createLimits = createLimits(document, kPodLimits);
        return pod;
    });
}

std::vector<std::string> parsePodIds(std::string_view body)
{
    constexpr std::string_view what = "pod list reply";
    const json document = parseArray(body, what);
    return guarded(what, [&] {
        std::vector<std::string> ids;
        for (const auto& entry : document)
            ids.push_back(entry.at("Id").get<std::string>());
        return ids;
    });
}

ApiError parseApiError(std::string_view body)
{
    auto errorOf = [](std::string_view text) -> std::optional<ApiError> {
        json document = json::parse(text, nullptr, /*allow_exceptions=*/false);
        if (!document.is_object())
            return std::nullopt;
        auto cause = document.find("cause");
        auto message = document.find("message");
        if (cause == document.end() || !cause->is_string() || message == document.end()
            || !message->is_string())
            return std::nullopt;
        return ApiError{cause->get<std::string>(), message->get<std::string>()};
    };
    if (auto error = errorOf(body))
        return *error;
    // Podman 4.3.1 writes the error of an ambiguous pod ID twice.
    if (auto firstLine = body.find('\n'); firstLine != std::string_view::npos)
        if (auto error = errorOf(body.substr(0, firstLine)))
            return *error;
    return {{}, std::string(body)};
}

bool isAmbiguousId(const ApiError& error)
{
    return error.cause == "container already exists" || error.cause == "pod already exists";
}

bool isNoSuchObject(const ApiError& error)
{
    return error.cause == "no such container" || error.cause == "no such pod";
}

ContainerEvent parseEvent(std::string_view line)
{
    constexpr std::string_view what = "event";
    auto document = parseObject(line, what);
    return guarded(what, [&] {
        ContainerEvent event;
        event.type = document.at("Type").get<std::string>();
        event.action = document.at("Action").get<std::string>();
        const auto& actor = document.at("Actor");
        event.containerId = actor.at("ID").get<std::string>();
        if (auto attributes = actor.find("Attributes");
            attributes != actor.end() && attributes->is_object())
            event.containerName = optionalString(*attributes, "name");
        const int64_t timeNano = integerField(document, "timeNano");
        if (timeNano < 0)
            throw MalformedReply("timeNano is negative");
        event.timeNano = static_cast<uint64_t>(timeNano);
        return event;
    });
}

}  // namespace resized::runtime
