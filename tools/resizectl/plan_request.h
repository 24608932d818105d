#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>
#include <sdbus-c++/Types.h>

#include "dictionary.h"

namespace resized::ctl {

// What SubmitPlan takes: a(sa{sv}), one (workload, resources) a change.
using PlanChange = sdbus::Struct<std::string, Dictionary>;

// The options of `plan submit` that go to the daemon.
struct PlanOptions {
    bool dryRun = false;
    std::optional<std::chrono::microseconds> delay;
    // manual, autoscale or plan; the daemon's default (plan) when not given.
    std::optional<std::string> reason;
    // --expect NAME=GENERATION, each workload at most once.
    std::map<std::string, uint64_t> expectedGenerations;
    bool defer = false;
};

// DryRun, DelayUSec, Reason, ExpectedGenerations and Defer, each only when
// given.
Dictionary toDictionary(const PlanOptions& options);

// The changes of a command line, "web cpus=500m db cpus=1.5 memory=1g": a
// workload name, then its resources as assignments (parseResourceAssignment:
// cpus=, memory=, CPUQuota=, ...); a word without '=' begins the next change.
// Throws CLI::ValidationError for no change, a change without resources, a
// word resizectl cannot read, a resource named twice in one change, or a
// workload named twice.
std::vector<PlanChange> parsePlanChanges(const std::vector<std::string>& words);

// The changes of a plan file, as `plan status --json` shows them:
//   {"Changes": [{"Workload": "web", "Resources": {"CpuMillis": 500}}, ...]}
// Resources are the D-Bus dictionaries, keys and integers as on the bus;
// other members of the document are ignored. The daemon judges the keys and
// values. Throws CLI::ValidationError for a document of another shape.
std::vector<PlanChange> planChangesFromJson(const nlohmann::json& document);

// --expect NAME=GENERATION; nullopt for anything else.
std::optional<std::pair<std::string, uint64_t>> parseExpectedGeneration(std::string_view text);

// A plan as people name it, its id ("7") or its object path
// ("/io/resized1/plan/7"), as the path; nullopt for anything else.
std::optional<sdbus::ObjectPath> parsePlanReference(std::string_view text);
// The id at the end of a plan's path; the path itself when it has none.
std::string planIdOf(const std::string& objectPath);

}  // namespace resized::ctl
