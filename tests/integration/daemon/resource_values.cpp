#include "resource_values.h"

namespace resized::integration
{

namespace
{

template <typename T>
void putIfSet(Dictionary& dictionary, const char* key, const std::optional<T>& value)
{
    if (value)
    {
        dictionary.emplace(key, sdbus::Variant(*value));
    }
}

template <typename T>
void printIfSet(std::ostream& stream, const char* key, const std::optional<T>& value)
{
    if (value)
    {
        stream << " " << key << "=" << *value;
    }
}

} // namespace

ResourceValues ResourceValues::fromDictionary(const Dictionary& dictionary)
{
    ResourceValues values;
    for (const auto& [key, value] : dictionary)
    {
        if (key == "CpuMillis")
        {
            values.cpuMillis = entryOf<std::uint64_t>(dictionary, key);
        }
        else if (key == "MemoryMax")
        {
            values.memoryMax = entryOf<std::uint64_t>(dictionary, key);
        }
        else if (key == "MemoryHigh")
        {
            values.memoryHigh = entryOf<std::uint64_t>(dictionary, key);
        }
        else if (key == "CpuWeight")
        {
            values.cpuWeight = entryOf<std::uint64_t>(dictionary, key);
        }
        else if (key == "AllowedCpus")
        {
            values.allowedCpus = entryOf<std::string>(dictionary, key);
        }
        else if (key == "ExclusiveCpus")
        {
            values.exclusiveCpus = entryOf<std::uint64_t>(dictionary, key);
        }
        else
        {
            throw std::runtime_error("resource key " + key + " is not in the contract");
        }
    }
    return values;
}

Dictionary ResourceValues::toDictionary() const
{
    Dictionary dictionary;
    putIfSet(dictionary, "CpuMillis", cpuMillis);
    putIfSet(dictionary, "MemoryMax", memoryMax);
    putIfSet(dictionary, "MemoryHigh", memoryHigh);
    putIfSet(dictionary, "CpuWeight", cpuWeight);
    putIfSet(dictionary, "AllowedCpus", allowedCpus);
    putIfSet(dictionary, "ExclusiveCpus", exclusiveCpus);
    return dictionary;
}

std::ostream& operator<<(std::ostream& stream, const ResourceValues& values)
{
    stream << "{";
    printIfSet(stream, "CpuMillis", values.cpuMillis);
    printIfSet(stream, "MemoryMax", values.memoryMax);
    printIfSet(stream, "MemoryHigh", values.memoryHigh);
    printIfSet(stream, "CpuWeight", values.cpuWeight);
    if (values.allowedCpus)
    {
        stream << " AllowedCpus=\"" << *values.allowedCpus << "\"";
    }
    printIfSet(stream, "ExclusiveCpus", values.exclusiveCpus);
    return stream << " }";
}

ResourceValues desiredOf(const Dictionary& status)
{
    return ResourceValues::fromDictionary(entryOf<Dictionary>(status, "Desired"));
}

ResourceValues actualOf(const Dictionary& status)
{
    return ResourceValues::fromDictionary(entryOf<Dictionary>(status, "Actual"));
}

} // namespace resized::integration
