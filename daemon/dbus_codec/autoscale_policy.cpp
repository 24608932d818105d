#include "dbus_codec/autoscale_policy.h"

#include <algorithm>
#include <array>
#include <functional>
#include <map>
#include <optional>
#include <utility>
#include <vector>

namespace resized::dbus_codec {

namespace autoscale = core::autoscale;

namespace {

using WirePolicies = std::vector<sdbus::Struct<std::string, uint64_t, uint64_t>>;

constexpr std::array<std::pair<autoscale::RateKind, std::string_view>, 2> kRateKinds{{
    {autoscale::RateKind::Percent, "Percent"},
    {autoscale::RateKind::Absolute, "Absolute"},
}};
constexpr std::array<std::pair<autoscale::Select, std::string_view>, 3> kSelects{{
    {autoscale::Select::Max, "Max"},
    {autoscale::Select::Min, "Min"},
    {autoscale::Select::Disabled, "Disabled"},
}};
constexpr std::array<std::pair<autoscale::Mode, std::string_view>, 2> kModes{{
    {autoscale::Mode::Auto, "auto"},
    {autoscale::Mode::Recommend, "recommend"},
}};

constexpr std::array<std::pair<autoscale::Direction, std::string_view>, 2> kDirections{{
    {autoscale::Direction::LowerIsBetter, "LowerIsBetter"},
    {autoscale::Direction::HigherIsBetter, "HigherIsBetter"},
}};
constexpr std::array<std::pair<autoscale::MetricResource, std::string_view>, 2> kMetricResources{{
    {autoscale::MetricResource::Cpu, "cpu"},
    {autoscale::MetricResource::Memory, "memory"},
}};

template <typename Enum, size_t N>
std::string nameOf(const std::array<std::pair<Enum, std::string_view>, N>& names, Enum value)
{
    for (const auto& [each, name] : names)
        if (each == value)
            return std::string(name);
    return {};
}

template <typename Enum, size_t N>
Enum valueNamed(const std::array<std::pair<Enum, std::string_view>, N>& names, const std::string& key,
                const std::string& text)
{
    std::string known;
    for (const auto& [value, name] : names) {
        if (name == text)
            return value;
        known += (known.empty() ? "" : ", ") + std::string(name);
    }
    throw InvalidDictionary(key + " \"" + text + "\" is none of " + known);
}

WirePolicies encodeRates(const std::vector<autoscale::RatePolicy>& policies)
{
    WirePolicies wire;
    for (const auto& policy : policies)
        wire.emplace_back(nameOf(kRateKinds, policy.kind), policy.value, static_cast<uint64_t>(policy.period.count()));
    return wire;
}

std::vector<autoscale::RatePolicy> decodeRates(const std::string& key, const WirePolicies& wire)
{
    std::vector<autoscale::RatePolicy> policies;
    for (const auto& rate : wire)
        policies.push_back(
            {valueNamed(kRateKinds, key, rate.get<0>()), rate.get<1>(), autoscale::Micros(rate.get<2>())});
    return policies;
}

using WireMetrics = std::vector<sdbus::Struct<std::string, Dictionary>>;

// `Metrics` a(sa{sv}): name → Target d, Direction s, Resource s.
std::map<std::string, autoscale::MetricTarget> decodeMetrics(const std::string& key, const WireMetrics& wire)
{
    std::map<std::string, autoscale::MetricTarget> metrics;
    for (const auto& entry : wire) {
        const std::string& name = entry.get<0>();
        const std::string where = key + " \"" + name + "\"";
        autoscale::MetricTarget metric;
        bool hasTarget = false;
        for (const auto& field : entry.get<1>()) {
            const std::string fieldKey = where + " " + field.first;
            if (field.first == "Target") {
                metric.target = valueOf<double>(fieldKey, field.second);
                hasTarget = true;
            } else if (field.first == "Direction") {
                metric.direction = valueNamed(kDirections, fieldKey, valueOf<std::string>(fieldKey, field.second));
            } else if (field.first == "Resource") {
                metric.resource = valueNamed(kMetricResources, fieldKey, valueOf<std::string>(fieldKey, field.second));
            } else {
                throw InvalidDictionary("unknown key \"" + field.first + "\" in " + where +
                                        " (known: Target, Direction, Resource)");
            }
        }
        if (!hasTarget)
            throw InvalidDictionary(where + " has no Target");
        if (!metrics.emplace(name, metric).second)
            throw InvalidDictionary(where + " is named twice");
    }
    return metrics;
}

WireMetrics encodeMetrics(const std::map<std::string, autoscale::MetricTarget>& metrics)
{
    WireMetrics wire;
    for (const auto& [name, metric] : metrics)
        wire.emplace_back(name, Dictionary{{"Target", sdbus::Variant(metric.target)},
                                           {"Direction", sdbus::Variant(nameOf(kDirections, metric.direction))},
                                           {"Resource", sdbus::Variant(nameOf(kMetricResources, metric.resource))}});
    return wire;
}

// One key of the dictionary: how it is read into a policy and written out of
// one. The table below is the only place that spells the keys.
struct Key {
    std::string_view name;
    std::function<void(autoscale::Policy&, const std::string& key, const sdbus::Variant&)> decode;
    std::function<std::optional<sdbus::Variant>(const autoscale::Policy&)> encode;
};

autoscale::Target& targetOf(std::optional<autoscale::Target>& target)
{
    if (!target)
        target.emplace();
    return *target;
}

// A field of a target: present in the dictionary only with the target.
template <typename Wire>
Key targetKey(std::string_view name, std::optional<autoscale::Target> autoscale::Policy::*target,
              Wire autoscale::Target::*field)
{
    return {name,
            [=](autoscale::Policy& policy, const std::string& key, const sdbus::Variant& value) {
                targetOf(policy.*target).*field = valueOf<Wire>(key, value);
            },
            [=](const autoscale::Policy& policy) -> std::optional<sdbus::Variant> {
                if (!(policy.*target))
                    return std::nullopt;
                return sdbus::Variant((*(policy.*target)).*field);
            }};
}

Key microsKey(std::string_view name, autoscale::Micros autoscale::Policy::*field)
{
    return {name,
            [=](autoscale::Policy& policy, const std::string& key, const sdbus::Variant& value) {
                policy.*field = autoscale::Micros(valueOf<uint64_t>(key, value));
            },
            [=](const autoscale::Policy& policy) -> std::optional<sdbus::Variant> {
                return sdbus::Variant(static_cast<uint64_t>((policy.*field).count()));
            }};
}

Key pressureKey(std::string_view name, std::optional<double> autoscale::Policy::*field)
{
    return {name,
            [=](autoscale::Policy& policy, const std::string& key, const sdbus::Variant& value) {
                policy.*field = valueOf<double>(key, value);
            },
            [=](const autoscale::Policy& policy) -> std::optional<sdbus::Variant> {
                if (!(policy.*field))
                    return std::nullopt;
                return sdbus::Variant(*(policy.*field));
            }};
}

Key stabilizationKey(std::string_view name, autoscale::Rules autoscale::Policy::*rules)
{
    return {name,
            [=](autoscale::Policy& policy, const std::string& key, const sdbus::Variant& value) {
                (policy.*rules).stabilization = autoscale::Micros(valueOf<uint64_t>(key, value));
            },
            [=](const autoscale::Policy& policy) -> std::optional<sdbus::Variant> {
                return sdbus::Variant(static_cast<uint64_t>((policy.*rules).stabilization.count()));
            }};
}

Key ratesKey(std::string_view name, autoscale::Rules autoscale::Policy::*rules)
{
    return {name,
            [=](autoscale::Policy& policy, const std::string& key, const sdbus::Variant& value) {
                (policy.*rules).policies = decodeRates(key, valueOf<WirePolicies>(key, value));
            },
            [=](const autoscale::Policy& policy) -> std::optional<sdbus::Variant> {
                return sdbus::Variant(encodeRates((policy.*rules).policies));
            }};
}

Key selectKey(std::string_view name, autoscale::Rules autoscale::Policy::*rules)
{
    return {name,
            [=](autoscale::Policy& policy, const std::string& key, const sdbus::Variant& value) {
                (policy.*rules).select = valueNamed(kSelects, key, valueOf<std::string>(key, value));
            },
            [=](const autoscale::Policy& policy) -> std::optional<sdbus::Variant> {
                return sdbus::Variant(nameOf(kSelects, (policy.*rules).select));
            }};
}

const std::vector<Key>& keys()
{
    using autoscale::Policy;
    using autoscale::Target;
    static const std::vector<Key> table{
        targetKey("CpuTargetUtilization", &Policy::cpu, &Target::utilizationPercent),
        targetKey("CpuMinMillis", &Policy::cpu, &Target::min),
        targetKey("CpuMaxMillis", &Policy::cpu, &Target::max),
        targetKey("MemoryTargetUtilization", &Policy::memory, &Target::utilizationPercent),
        targetKey("MemoryMinBytes", &Policy::memory, &Target::min),
        targetKey("MemoryMaxBytes", &Policy::memory, &Target::max),
        microsKey("IntervalUSec", &Policy::interval),
        {"Tolerance",
         [](Policy& policy, const std::string& key, const sdbus::Variant& value) {
             policy.tolerance = valueOf<double>(key, value);
         },
         [](const Policy& policy) -> std::optional<sdbus::Variant> { return sdbus::Variant(policy.tolerance); }},
        stabilizationKey("ScaleUpStabilizationUSec", &Policy::scaleUp),
        stabilizationKey("ScaleDownStabilizationUSec", &Policy::scaleDown),
        ratesKey("ScaleUpPolicies", &Policy::scaleUp),
        ratesKey("ScaleDownPolicies", &Policy::scaleDown),
        selectKey("ScaleUpSelect", &Policy::scaleUp),
        selectKey("ScaleDownSelect", &Policy::scaleDown),
        {"Mode",
         [](Policy& policy, const std::string& key, const sdbus::Variant& value) {
             policy.mode = valueNamed(kModes, key, valueOf<std::string>(key, value));
         },
         [](const Policy& policy) -> std::optional<sdbus::Variant> {
             return sdbus::Variant(nameOf(kModes, policy.mode));
         }},
        {"Metrics",
         [](Policy& policy, const std::string& key, const sdbus::Variant& value) {
             policy.metrics = decodeMetrics(key, valueOf<WireMetrics>(key, value));
         },
         [](const Policy& policy) -> std::optional<sdbus::Variant> {
             return sdbus::Variant(encodeMetrics(policy.metrics));
         }},
        microsKey("MetricMaxAgeUSec", &Policy::metricMaxAge),
        pressureKey("CpuPressureTarget", &Policy::cpuPressureTarget),
        pressureKey("MemoryPressureTarget", &Policy::memoryPressureTarget),
    };
    return table;
}

std::string allKeyNames()
{
    std::string names;
    for (const auto& key : keys())
        names += (names.empty() ? "" : ", ") + std::string(key.name);
    return names;
}

}  // namespace

autoscale::Policy decodeAutoscalePolicy(const Dictionary& dictionary)
{
    autoscale::Policy policy;
    // Not a structured binding: clang before 16 cannot capture one.
    for (const auto& entry : dictionary) {
        const auto key =
            std::find_if(keys().begin(), keys().end(), [&](const Key& each) { return each.name == entry.first; });
        if (key == keys().end())
            throw InvalidDictionary("unknown autoscale policy key \"" + entry.first + "\" (known: " + allKeyNames() +
                                    ")");
        key->decode(policy, entry.first, entry.second);
    }
    // A resource scaled by metrics alone has bounds all the same: the
    // defaults, unless the policy names them.
    for (const auto resource : {autoscale::MetricResource::Cpu, autoscale::MetricResource::Memory})
        if (autoscale::scaledByMetrics(policy, resource))
            targetOf(resource == autoscale::MetricResource::Cpu ? policy.cpu : policy.memory);
    const auto defaultMin = [&](std::optional<autoscale::Target>& target, const char* key, uint64_t value) {
        if (target && !dictionary.contains(key))
            target->min = std::min(value, target->max);
    };
    defaultMin(policy.cpu, "CpuMinMillis", autoscale::kDefaultCpuMinMillis);
    defaultMin(policy.memory, "MemoryMinBytes", autoscale::kDefaultMemoryMinBytes);
    if (auto error = autoscale::invalidity(policy))
        throw InvalidDictionary(*error);
    return policy;
}

Dictionary encodeAutoscalePolicy(const autoscale::Policy& policy)
{
    Dictionary dictionary;
    for (const auto& key : keys())
        if (auto value = key.encode(policy))
            dictionary.emplace(std::string(key.name), std::move(*value));
    return dictionary;
}

}  // namespace resized::dbus_codec
