#include "cgroup/limit_key.h"

#include "core/cpuset.h"

namespace resized::cgroup {

namespace {

using NumberMember = std::optional<uint64_t> core::Resources::*;

NumberMember numberMember(LimitKey key)
{
    switch (key) {
    case LimitKey::CpuMillis:
        return &core::Resources::cpuMillis;
    case LimitKey::CpuWeight:
        return &core::Resources::cpuWeight;
    case LimitKey::MemoryHigh:
        return &core::Resources::memoryHigh;
    case LimitKey::MemoryMax:
        return &core::Resources::memoryMax;
    case LimitKey::AllowedCpus:
        break;
    }
    return nullptr;
}

bool lowersCpus(const std::string& from, const std::string& to)
{
    const auto fromCpus = core::parseCpuSet(from);
    const auto toCpus = core::parseCpuSet(to);
    if (!fromCpus || !toCpus || toCpus->empty())
        return false;
    return fromCpus->empty() || (*toCpus != *fromCpus && core::isSubset(*toCpus, *fromCpus));
}

}  // namespace

std::string_view keyName(LimitKey key)
{
    switch (key) {
    case LimitKey::CpuMillis:
        return "CpuMillis";
    case LimitKey::CpuWeight:
        return "CpuWeight";
    case LimitKey::AllowedCpus:
        return "AllowedCpus";
    case LimitKey::MemoryHigh:
        return "MemoryHigh";
    case LimitKey::MemoryMax:
        return "MemoryMax";
    }
    return "?";
}

bool names(const core::Resources& limits, LimitKey key)
{
    if (key == LimitKey::AllowedCpus)
        return limits.allowedCpus.has_value();
    return (limits.*numberMember(key)).has_value();
}

core::Resources withKey(core::Resources value, LimitKey key, const core::Resources& source)
{
    if (key == LimitKey::AllowedCpus)
        value.allowedCpus = source.allowedCpus;
    else
        value.*numberMember(key) = source.*numberMember(key);
    return value;
}

core::Resources only(const core::Resources& limits, LimitKey key)
{
    return withKey({}, key, limits);
}

bool lowers(LimitKey key, const core::Resources& from, const core::Resources& to)
{
    if (key == LimitKey::AllowedCpus)
        return lowersCpus(*from.allowedCpus, *to.allowedCpus);
    return *(to.*numberMember(key)) < *(from.*numberMember(key));
}

}  // namespace resized::cgroup
