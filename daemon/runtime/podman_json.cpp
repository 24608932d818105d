#include "runtime/podman_json.h"

#include <algorithm>
#include <limits>
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

// A limit of HostConfig: missing, 0 or negative (-1 is "unlimited" in some
// Docker-compatible fields) all mean the container was created without it.
std::optional<uint64_t> positiveLimit(const json& hostConfig, const char* key)
{
    auto field = hostConfig.find(key);
    if (field == hostConfig.end() || field->is_null())
        return std::nullopt;
    if (!field->is_number_integer())
        throw MalformedReply(std::string("HostConfig.") + key + " is not an integer");
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
std::optional<uint64_t> createCpuMillis(const json& hostConfig)
{
    if (auto nanoCpus = positiveLimit(hostConfig, "NanoCpus"))
        return divideRoundingUp(*nanoCpus, 1'000'000);
    auto quota = positiveLimit(hostConfig, "CpuQuota");
    if (!quota)
        return std::nullopt;
    const uint64_t period = positiveLimit(hostConfig, "CpuPeriod").value_or(kDefaultCpuPeriodUsec);
    const unsigned __int128 millis = (static_cast<unsigned __int128>(*quota) * 1000 + period - 1) / period;
    return millis >= core::kUnlimited ? core::kUnlimited - 1 : static_cast<uint64_t>(millis);
}

std::optional<std::string> createAllowedCpus(const json& hostConfig)
{
    auto field = hostConfig.find("CpusetCpus");
    if (field == hostConfig.end() || field->is_null())
        return std::nullopt;
    auto text = field->get<std::string>();
    if (text.empty())
        return std::nullopt;
    auto cpus = core::parseCpuSet(text);
    if (!cpus)
        throw MalformedReply("HostConfig.CpusetCpus is not a cpuset list: " + text);
    return core::formatCpuSet(*cpus);
}

core::Resources createLimits(const json& hostConfig)
{
    if (!hostConfig.is_object())
        throw MalformedReply("HostConfig is not an object");
    core::Resources limits;
    limits.cpuMillis = createCpuMillis(hostConfig);
    limits.memoryMax = positiveLimit(hostConfig, "Memory");
    limits.memoryHigh = positiveLimit(hostConfig, "MemoryReservation");
    if (auto shares = positiveLimit(hostConfig, "CpuShares"))
        limits.cpuWeight = cpuSharesToWeight(*shares);
    limits.allowedCpus = createAllowedCpus(hostConfig);
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
    parsed.running = entry.at("State").get<std::string>() == "running";
    parsed.pid = parsed.running ? pidOf(entry) : 0;
    return parsed;
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
        container.running = state.at("Running").get<bool>();
        // A stopped container keeps the PID it last had in some versions; it
        // means nothing once the process is gone.
        container.pid = container.running ? pidOf(state) : 0;
        container.cgroupPath = optionalString(state, "CgroupPath");
        container.createLimits = createLimits(document.at("HostConfig"));
        return container;
    });
}

std::vector<ListEntry> parseList(std::string_view body)
{
    constexpr std::string_view what = "container list reply";
    json document = json::parse(body, nullptr, /*allow_exceptions=*/false);
    if (document.is_discarded() || !document.is_array())
        throw MalformedReply(std::string(what) + ": not a JSON array");
    return guarded(what, [&] {
        std::vector<ListEntry> entries;
        entries.reserve(document.size());
        for (const auto& entry : document)
            entries.push_back(parseListEntry(entry));
        return entries;
    });
}

std::string parsePodName(std::string_view body)
{
    constexpr std::string_view what = "pod inspect reply";
    auto document = parseObject(body, what);
    return guarded(what, [&] { return document.at("Name").get<std::string>(); });
}

ApiError parseApiError(std::string_view body)
{
    json document = json::parse(body, nullptr, /*allow_exceptions=*/false);
    if (document.is_object()) {
        auto cause = document.find("cause");
        auto message = document.find("message");
        if (cause != document.end() && cause->is_string() && message != document.end()
            && message->is_string())
            return {cause->get<std::string>(), message->get<std::string>()};
    }
    return {{}, std::string(body)};
}

bool isAmbiguousId(const ApiError& error)
{
    return error.cause == "container already exists";
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
