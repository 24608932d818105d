#include "plan_request.h"

#include <set>

#include <CLI/CLI.hpp>

#include "arguments.h"
#include "output.h"
#include "resource_options.h"

namespace resized::ctl {

namespace {

constexpr std::string_view kPlanPathPrefix = "/io/resized1/plan/";

PlanChange makeChange(const std::string& workload, const ResourceArguments& arguments)
{
    try {
        const ResourceRequest request = arguments.resolve();
        // Said as `set` says it: a CPU quantity rounded to a millicore.
        for (const auto& note : request.notes)
            printNote(workload + ": " + note);
        return PlanChange(workload, toDictionary(request.resources));
    } catch (const CLI::ValidationError& error) {
        throw CLI::ValidationError(workload + ": " + error.what());
    }
}

// A member of a resource dictionary as a plan file writes it.
sdbus::Variant variantOf(const std::string& key, const nlohmann::json& value)
{
    if (value.is_number_unsigned())
        return sdbus::Variant(value.get<uint64_t>());
    if (value.is_string())
        return sdbus::Variant(value.get<std::string>());
    if (value.is_boolean())
        return sdbus::Variant(value.get<bool>());
    throw CLI::ValidationError(key + ": " + value.dump() +
                               " is neither a whole number of 0 or more, nor a string, nor a boolean");
}

PlanChange changeFromJson(const nlohmann::json& change)
{
    const auto workload = change.find("Workload");
    const auto resources = change.find("Resources");
    if (!change.is_object() || workload == change.end() || !workload->is_string() || resources == change.end() ||
        !resources->is_object())
        throw CLI::ValidationError("each change is an object with a string Workload and an object Resources, not " +
                                   change.dump());
    Dictionary dictionary;
    for (const auto& [key, value] : resources->items())
        dictionary.emplace(key, variantOf(key, value));
    return PlanChange(workload->get<std::string>(), std::move(dictionary));
}

void requireDistinctWorkloads(const std::vector<PlanChange>& changes)
{
    std::set<std::string> seen;
    for (const auto& change : changes)
        if (!seen.insert(change.get<0>()).second)
            throw CLI::ValidationError(change.get<0>() + ": named by two changes; one change a workload");
}

}  // namespace

Dictionary toDictionary(const PlanOptions& options)
{
    Dictionary dictionary;
    if (options.dryRun)
        dictionary.emplace("DryRun", true);
    if (options.delay)
        dictionary.emplace("DelayUSec", static_cast<uint64_t>(options.delay->count()));
    if (options.reason)
        dictionary.emplace("Reason", *options.reason);
    if (!options.expectedGenerations.empty())
        dictionary.emplace("ExpectedGenerations", options.expectedGenerations);
    if (options.defer)
        dictionary.emplace("Defer", true);
    return dictionary;
}

std::vector<PlanChange> parsePlanChanges(const std::vector<std::string>& words)
{
    std::vector<PlanChange> changes;
    std::optional<std::string> workload;
    ResourceArguments arguments;
    for (const auto& word : words) {
        if (word.find('=') != std::string::npos) {
            if (!workload)
                throw CLI::ValidationError(word + ": a change begins with the workload's name");
            arguments.assignments.push_back(word);
            continue;
        }
        if (workload)
            changes.push_back(makeChange(*workload, arguments));
        workload = word;
        arguments.assignments.clear();
    }
    if (!workload)
        throw CLI::ValidationError("name at least one change: WORKLOAD cpus=1.5 memory=1g ..., or --file FILE");
    changes.push_back(makeChange(*workload, arguments));
    requireDistinctWorkloads(changes);
    return changes;
}

std::vector<PlanChange> planChangesFromJson(const nlohmann::json& document)
{
    const auto changes = document.is_object() ? document.find("Changes") : document.end();
    if (changes == document.end() || !changes->is_array() || changes->empty())
        throw CLI::ValidationError("a plan file is an object with an array Changes of one change or more");
    std::vector<PlanChange> result;
    for (const auto& change : *changes)
        result.push_back(changeFromJson(change));
    requireDistinctWorkloads(result);
    return result;
}

std::optional<std::pair<std::string, uint64_t>> parseExpectedGeneration(std::string_view text)
{
    const size_t equals = text.rfind('=');
    if (equals == std::string_view::npos || equals == 0)
        return std::nullopt;
    const auto generation = parseUnsignedArgument(text.substr(equals + 1));
    if (!generation)
        return std::nullopt;
    return std::pair{std::string(text.substr(0, equals)), *generation};
}

std::optional<sdbus::ObjectPath> parsePlanReference(std::string_view text)
{
    if (text.starts_with(kPlanPathPrefix))
        text.remove_prefix(kPlanPathPrefix.size());
    const auto id = parseUnsignedArgument(text);
    if (!id)
        return std::nullopt;
    return sdbus::ObjectPath(std::string(kPlanPathPrefix) + std::to_string(*id));
}

std::string planIdOf(const std::string& objectPath)
{
    if (objectPath.starts_with(kPlanPathPrefix))
        return objectPath.substr(kPlanPathPrefix.size());
    return objectPath;
}

}  // namespace resized::ctl
