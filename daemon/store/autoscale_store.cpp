#include "store/autoscale_store.h"

#include <nlohmann/json.hpp>

namespace resized::store {

namespace autoscale = core::autoscale;

namespace {

nlohmann::json targetJson(const autoscale::Target& target)
{
    return {{"utilization_percent", target.utilizationPercent}, {"min", target.min}, {"max", target.max}};
}

autoscale::Target targetFrom(const nlohmann::json& object)
{
    return {object.at("utilization_percent").get<uint32_t>(), object.at("min").get<uint64_t>(),
            object.at("max").get<uint64_t>()};
}

// Enumerations as their numbers: the JSON never leaves the state file.
nlohmann::json rulesJson(const autoscale::Rules& rules)
{
    auto policies = nlohmann::json::array();
    for (const auto& policy : rules.policies)
        policies.push_back({static_cast<int>(policy.kind), policy.value, policy.period.count()});
    return {{"stabilization_usec", rules.stabilization.count()},
            {"policies", policies},
            {"select", static_cast<int>(rules.select)}};
}

autoscale::Rules rulesFrom(const nlohmann::json& object)
{
    autoscale::Rules rules{autoscale::Micros(object.at("stabilization_usec").get<int64_t>()), {},
                           static_cast<autoscale::Select>(object.at("select").get<int>())};
    for (const auto& policy : object.at("policies"))
        rules.policies.push_back({static_cast<autoscale::RateKind>(policy.at(0).get<int>()),
                                  policy.at(1).get<uint64_t>(), autoscale::Micros(policy.at(2).get<int64_t>())});
    return rules;
}

}  // namespace

std::string toJson(const autoscale::Policy& policy)
{
    nlohmann::json object{{"interval_usec", policy.interval.count()},
                          {"tolerance", policy.tolerance},
                          {"scale_up", rulesJson(policy.scaleUp)},
                          {"scale_down", rulesJson(policy.scaleDown)},
                          {"mode", static_cast<int>(policy.mode)}};
    // A resource scaled by metrics alone has no utilization: under a key of
    // its own, which a resized older than metrics does not read, rather
    // than as a utilization of 0 it would divide by.
    if (policy.cpu)
        object[policy.cpu->utilizationPercent ? "cpu" : "cpu_by_metrics"] = targetJson(*policy.cpu);
    if (policy.memory)
        object[policy.memory->utilizationPercent ? "memory" : "memory_by_metrics"] = targetJson(*policy.memory);
    if (!policy.metrics.empty()) {
        auto metrics = nlohmann::json::object();
        for (const auto& [name, metric] : policy.metrics)
            metrics[name] = {{"target", metric.target},
                             {"direction", static_cast<int>(metric.direction)},
                             {"resource", static_cast<int>(metric.resource)}};
        object["metrics"] = metrics;
    }
    object["metric_max_age_usec"] = policy.metricMaxAge.count();
    if (policy.cpuPressureTarget)
        object["cpu_pressure_target"] = *policy.cpuPressureTarget;
    if (policy.memoryPressureTarget)
        object["memory_pressure_target"] = *policy.memoryPressureTarget;
    return object.dump();
}

autoscale::Policy policyFromJson(const std::string& text)
{
    try {
        const auto object = nlohmann::json::parse(text);
        autoscale::Policy policy;
        policy.interval = autoscale::Micros(object.at("interval_usec").get<int64_t>());
        policy.tolerance = object.at("tolerance").get<double>();
        policy.scaleUp = rulesFrom(object.at("scale_up"));
        policy.scaleDown = rulesFrom(object.at("scale_down"));
        policy.mode = static_cast<autoscale::Mode>(object.at("mode").get<int>());
        for (const char* key : {"cpu", "cpu_by_metrics"})
            if (object.contains(key))
                policy.cpu = targetFrom(object.at(key));
        for (const char* key : {"memory", "memory_by_metrics"})
            if (object.contains(key))
                policy.memory = targetFrom(object.at(key));
        if (object.contains("metrics"))
            for (const auto& [name, metric] : object.at("metrics").items())
                policy.metrics.emplace(
                    name, autoscale::MetricTarget{
                              metric.at("target").get<double>(),
                              static_cast<autoscale::Direction>(metric.at("direction").get<int>()),
                              static_cast<autoscale::MetricResource>(metric.at("resource").get<int>())});
        if (object.contains("metric_max_age_usec"))
            policy.metricMaxAge = autoscale::Micros(object.at("metric_max_age_usec").get<int64_t>());
        if (object.contains("cpu_pressure_target"))
            policy.cpuPressureTarget = object.at("cpu_pressure_target").get<double>();
        if (object.contains("memory_pressure_target"))
            policy.memoryPressureTarget = object.at("memory_pressure_target").get<double>();
        return policy;
    } catch (const nlohmann::json::exception& error) {
        throw StoreError("an autoscale policy in the state file is damaged: " + std::string(error.what()));
    }
}

std::map<std::string, autoscale::Policy> AutoscaleStore::policies()
{
    Statement query(db_, "SELECT workload, policy FROM autoscale_policies");
    std::map<std::string, autoscale::Policy> policies;
    while (query.step())
        policies.emplace(query.text(0), policyFromJson(query.text(1)));
    return policies;
}

void AutoscaleStore::savePolicy(const std::string& workload, const autoscale::Policy& policy)
{
    Statement(db_, "INSERT OR REPLACE INTO autoscale_policies (workload, policy) VALUES (?, ?)")
        .bind(1, workload)
        .bind(2, toJson(policy))
        .run();
}

void AutoscaleStore::removePolicy(const std::string& workload)
{
    WriteTransaction transaction(db_);
    for (const char* sql : {"DELETE FROM autoscale_policies WHERE workload = ?",
                            "DELETE FROM autoscale_recommendations WHERE workload = ?",
                            "DELETE FROM autoscale_events WHERE workload = ?"})
        Statement(db_, sql).bind(1, workload).run();
    transaction.commit();
}

autoscale::History AutoscaleStore::history(const std::string& workload, std::string_view resource)
{
    autoscale::History history;
    Statement recommendations(db_, "SELECT at_usec, value FROM autoscale_recommendations "
                                   "WHERE workload = ? AND resource = ? ORDER BY at_usec");
    recommendations.bind(1, workload).bind(2, resource);
    while (recommendations.step())
        history.recommendations.push_back(
            {autoscale::Micros(recommendations.integer(0)), recommendations.unsignedInteger(1)});
    Statement events(db_, "SELECT at_usec, from_value, to_value FROM autoscale_events "
                          "WHERE workload = ? AND resource = ? ORDER BY at_usec");
    events.bind(1, workload).bind(2, resource);
    while (events.step())
        history.events.push_back(
            {autoscale::Micros(events.integer(0)), events.unsignedInteger(1), events.unsignedInteger(2)});
    return history;
}

void AutoscaleStore::addRecommendations(const std::vector<NewRecommendation>& recommendations)
{
    WriteTransaction transaction(db_);
    for (const auto& [workload, resource, recommendation, keepAfter] : recommendations) {
        Statement(db_, "DELETE FROM autoscale_recommendations WHERE workload = ? AND resource = ? AND at_usec <= ?")
            .bind(1, workload)
            .bind(2, resource)
            .bind(3, int64_t{keepAfter.count()})
            .run();
        Statement(db_,
                  "INSERT INTO autoscale_recommendations (workload, resource, at_usec, value) VALUES (?, ?, ?, ?)")
            .bind(1, workload)
            .bind(2, resource)
            .bind(3, int64_t{recommendation.at.count()})
            .bind(4, recommendation.value)
            .run();
    }
    transaction.commit();
}

void AutoscaleStore::addEvent(const std::string& workload, std::string_view resource,
                              const autoscale::ScaleEvent& event, autoscale::Micros keepAfter)
{
    WriteTransaction transaction(db_);
    Statement(db_, "DELETE FROM autoscale_events WHERE workload = ? AND resource = ? AND at_usec <= ?")
        .bind(1, workload)
        .bind(2, resource)
        .bind(3, int64_t{keepAfter.count()})
        .run();
    Statement(db_, "INSERT INTO autoscale_events (workload, resource, at_usec, from_value, to_value) "
                   "VALUES (?, ?, ?, ?, ?)")
        .bind(1, workload)
        .bind(2, resource)
        .bind(3, int64_t{event.at.count()})
        .bind(4, event.from)
        .bind(5, event.to)
        .run();
    transaction.commit();
}

}  // namespace resized::store
